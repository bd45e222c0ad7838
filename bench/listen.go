package bench

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// An AddressInUseError is a server's address (Server.Ready's host and
// port) where another process already answers, found before the server
// started: that process would answer in its place. Nothing was started.
type AddressInUseError struct {
	URL  string // Server.Ready
	Addr string // its host and port
}

func (e *AddressInUseError) Error() string {
	return fmt.Sprintf("bench: %s: another process already listens on %s, the server's address", e.URL, e.Addr)
}

// A ForeignServerError is a server that became ready although the socket
// listening on its address (Server.Ready's host and port) belongs to no
// process of its tree: another process answers in its place, and the
// figures would be that process's.
type ForeignServerError struct {
	URL   string // Server.Ready
	Addr  string // its host and port
	Inode uint64 // the listening socket's inode
	Pid   int    // the process that holds it
	Log   string // the server's output
}

func (e *ForeignServerError) Error() string {
	return fmt.Sprintf("bench: %s: another process (pid %d) answers on %s, not the server started nor any process of its tree; its output: %s",
		e.URL, e.Pid, e.Addr, e.Log)
}

// urlAddr is the host and port of an http or https URL, the port the
// scheme's when the URL has none.
func urlAddr(raw string) (host, port string, err error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", "", err
	}
	port = u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	return u.Hostname(), port, nil
}

// addressFree checks, before a server starts, that nothing answers on
// its address: a TCP connection that succeeds is another process's.
func addressFree(ready string) error {
	host, port, err := urlAddr(ready)
	if err != nil {
		return nil // the readiness poll says what is wrong with it
	}
	addr := net.JoinHostPort(host, port)
	c, err := net.DialTimeout("tcp", addr, 500*time.Millisecond)
	if err != nil {
		return nil
	}
	c.Close()
	return &AddressInUseError{URL: ready, Addr: addr}
}

// A listener is a listening TCP socket of /proc/net/tcp or tcp6.
type listener struct {
	ip    net.IP
	port  int
	inode uint64
}

// parseListeners reads the listening sockets (state 0A) of a
// /proc/net/tcp or tcp6 file; a line it cannot read is skipped.
func parseListeners(b []byte) []listener {
	var ls []listener
	for line := range bytes.Lines(b) {
		f := strings.Fields(string(line))
		if len(f) < 10 || f[3] != "0A" {
			continue
		}
		ipHex, portHex, ok := strings.Cut(f[1], ":")
		raw, err1 := hex.DecodeString(ipHex)
		port, err2 := strconv.ParseUint(portHex, 16, 16)
		inode, err3 := strconv.ParseUint(f[9], 10, 64)
		if !ok || err1 != nil || err2 != nil || err3 != nil || (len(raw) != 4 && len(raw) != 16) {
			continue
		}
		// Each 32-bit word is printed in the host's order (little-endian).
		for i := 0; i < len(raw); i += 4 {
			slices.Reverse(raw[i : i+4])
		}
		ls = append(ls, listener{ip: net.IP(raw), port: int(port), inode: inode})
	}
	return ls
}

// answering is the inodes of the listeners that take a connection to one
// of ips on port: those bound to one of them, else those bound to every
// address (0.0.0.0, ::).
func answering(ls []listener, ips []net.IP, port int) []uint64 {
	var exact, any []uint64
	for _, l := range ls {
		if l.port != port {
			continue
		}
		switch {
		case slices.ContainsFunc(ips, l.ip.Equal):
			exact = append(exact, l.inode)
		case l.ip.IsUnspecified():
			any = append(any, l.inode)
		}
	}
	if len(exact) > 0 {
		return exact
	}
	return any
}

// socketInodes is the inodes of the sockets that the processes pids hold
// open, read from root/proc/<pid>/fd; ok is false when one of them could
// not be read (another user's), and nothing can be said.
func socketInodes(root string, pids []int) (inodes map[uint64]bool, ok bool) {
	inodes = map[uint64]bool{}
	for _, pid := range pids {
		dir := filepath.Join(root, "proc", strconv.Itoa(pid), "fd")
		fds, err := os.ReadDir(dir)
		if errors.Is(err, os.ErrNotExist) {
			continue // ended since
		}
		if err != nil {
			return nil, false
		}
		for _, fd := range fds {
			link, err := os.Readlink(filepath.Join(dir, fd.Name()))
			if s, found := strings.CutPrefix(link, "socket:["); err == nil && found {
				if n, err := strconv.ParseUint(strings.TrimSuffix(s, "]"), 10, 64); err == nil {
					inodes[n] = true
				}
			}
		}
	}
	return inodes, true
}

// serverOwns checks, once a server is ready, that the sockets listening
// on its address (ready's host and port) belong to its process tree (the
// processes tree lists), reading root/proc: one that another process
// holds is a *ForeignServerError. It says nothing (nil) where it cannot
// tell: no /proc (not Linux), an address it cannot resolve, no listener
// there (another network namespace, another host), a process it cannot
// read, a socket no process holds any more (a server that is ending).
func serverOwns(root, ready string, tree func() []int) error {
	host, portText, err := urlAddr(ready)
	if err != nil {
		return nil
	}
	port, _ := strconv.Atoi(portText)
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	addrs, err := net.DefaultResolver.LookupIPAddr(ctx, host)
	if err != nil {
		return nil
	}
	var ips []net.IP
	for _, a := range addrs {
		ips = append(ips, a.IP)
	}
	var ls []listener
	for _, f := range []string{"tcp", "tcp6"} {
		if b, err := os.ReadFile(filepath.Join(root, "proc", "net", f)); err == nil {
			ls = append(ls, parseListeners(b)...)
		}
	}
	listening := answering(ls, ips, port)
	if len(listening) == 0 {
		return nil
	}
	pids := tree()
	mine, ok := socketInodes(root, pids)
	if !ok {
		return nil
	}
	for _, inode := range listening {
		if mine[inode] {
			continue
		}
		// Another process's, or one of the tree's that started since.
		if pid := holder(root, inode); pid != 0 && !slices.Contains(pids, pid) && !slices.Contains(tree(), pid) {
			return &ForeignServerError{URL: ready, Addr: net.JoinHostPort(host, portText), Inode: inode, Pid: pid}
		}
	}
	return nil
}

// holder is a process that holds the socket inode open, read from every
// process's root/proc/<pid>/fd; 0 when none does.
func holder(root string, inode uint64) int {
	procs, err := os.ReadDir(filepath.Join(root, "proc"))
	if err != nil {
		return 0
	}
	want := "socket:[" + strconv.FormatUint(inode, 10) + "]"
	for _, p := range procs {
		pid, err := strconv.Atoi(p.Name())
		if err != nil {
			continue
		}
		dir := filepath.Join(root, "proc", p.Name(), "fd")
		fds, _ := os.ReadDir(dir)
		for _, fd := range fds {
			if link, _ := os.Readlink(filepath.Join(dir, fd.Name())); link == want {
				return pid
			}
		}
	}
	return 0
}
