package bench

import (
	"context"
	"fmt"
	"net"
	"time"

	"github.com/gcperf/gcperf/workload"
)

// A Loader is an operation that loads a network address (load.HTTP): Run
// refuses to serve Options.HTTP on the address it loads, where the
// operations would load gcperf's own pprof server.
type Loader interface {
	// Loads is the address dialled, host:port, and what was asked for,
	// as shown (a URL, its password hidden).
	Loads() (addr, shown string)
}

// A LoadedError is wrapped by the *InputError of an Options.HTTP address
// that an operation of the mix loads (a Loader).
type LoadedError struct {
	HTTP string // Options.HTTP
	Op   string // the operation's name
	Load string // what it loads, as shown
}

func (e *LoadedError) Error() string {
	return fmt.Sprintf("bench: HTTP %s is the address the operation %s loads (%s)", e.HTTP, e.Op, e.Load)
}

// checkLoaded refuses an HTTP address that an operation of mix loads.
func (o *Options) checkLoaded(mix workload.Mix) error {
	for _, op := range mix {
		l, ok := op.(Loader)
		if !ok {
			continue
		}
		addr, shown := l.Loads()
		if sameListener(o.HTTP, addr) {
			err := &LoadedError{HTTP: o.HTTP, Op: op.Name(), Load: shown}
			return &InputError{Field: "HTTP", Value: o.HTTP,
				Reason: fmt.Sprintf("the address the operation %s loads (%s): the operations would load gcperf's own pprof server", op.Name(), shown), Err: err}
		}
	}
	return nil
}

// sameListener reports whether a server listening on listen (host:port)
// is what dialling dial (host:port) reaches: the same port, and a host
// that resolves to one of the listener's addresses, or any address of this
// machine when the listener's is unspecified (":P", "0.0.0.0:P",
// "[::]:P"). A host that does not resolve is not the same.
func sameListener(listen, dial string) bool {
	lh, lp, err := net.SplitHostPort(listen)
	if err != nil {
		return false
	}
	dh, dp, err := net.SplitHostPort(dial)
	if err != nil {
		return false
	}
	lport, err1 := net.LookupPort("tcp", lp)
	dport, err2 := net.LookupPort("tcp", dp)
	if err1 != nil || err2 != nil || lport == 0 || lport != dport {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	dips := resolve(ctx, dh)
	if lh == "" {
		return isLocal(dips)
	}
	lips := resolve(ctx, lh)
	for _, l := range lips {
		if l.IsUnspecified() {
			return isLocal(dips)
		}
		for _, d := range dips {
			if l.Equal(d) || d.IsUnspecified() && l.IsLoopback() {
				return true
			}
		}
	}
	return false
}

// resolve is host's addresses, none when it does not resolve.
func resolve(ctx context.Context, host string) []net.IP {
	if ip := net.ParseIP(host); ip != nil {
		return []net.IP{ip}
	}
	addrs, err := net.DefaultResolver.LookupIPAddr(ctx, host)
	if err != nil {
		return nil
	}
	ips := make([]net.IP, len(addrs))
	for i, a := range addrs {
		ips[i] = a.IP
	}
	return ips
}

// isLocal reports whether one of ips is this machine's: loopback,
// unspecified (dialling it reaches this machine), or an interface's.
func isLocal(ips []net.IP) bool {
	for _, ip := range ips {
		if ip.IsLoopback() || ip.IsUnspecified() {
			return true
		}
	}
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return false
	}
	for _, a := range addrs {
		n, ok := a.(*net.IPNet)
		if !ok {
			continue
		}
		for _, ip := range ips {
			if n.IP.Equal(ip) {
				return true
			}
		}
	}
	return false
}
