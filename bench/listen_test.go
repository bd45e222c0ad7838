package bench

import (
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
)

// /proc/net/tcp and tcp6 as Linux writes them: each address's 32-bit
// words in the host's order (little-endian here), the port in hex.
const (
	procTCP = `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 0100007F:4A5D 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1001 1 0000000000000000 100 0 0 10 0
   1: 00000000:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1002 1 0000000000000000 100 0 0 10 0
   2: 0100007F:4A5D 0100007F:C350 01 00000000:00000000 00:00000000 00000000     0        0 1003 1 0000000000000000 20 4 30 10 -1
   3: garbage
`
	procTCP6 = `  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 00000000000000000000000000000000:1F91 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 2001 1 0000000000000000 100 0 0 10 0
   1: 00000000000000000000000001000000:4A5E 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 2002 1 0000000000000000 100 0 0 10 0
   2: 0000000000000000FFFF00000100007F:4A5F 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 2003 1 0000000000000000 100 0 0 10 0
`
)

func TestParseListeners(t *testing.T) {
	ls := append(parseListeners([]byte(procTCP)), parseListeners([]byte(procTCP6))...)
	want := []listener{
		{net.IPv4(127, 0, 0, 1), 19037, 1001},
		{net.IPv4zero, 8080, 1002},
		{net.IPv6unspecified, 8081, 2001},
		{net.IPv6loopback, 19038, 2002},
		{net.IPv4(127, 0, 0, 1), 19039, 2003},
	}
	if !slices.EqualFunc(ls, want, func(a, b listener) bool { return a.ip.Equal(b.ip) && a.port == b.port && a.inode == b.inode }) {
		t.Errorf("parseListeners = %v, want %v", ls, want)
	}
	loop := []net.IP{net.IPv4(127, 0, 0, 1)}
	for _, tt := range []struct {
		ips  []net.IP
		port int
		want []uint64
	}{
		{loop, 19037, []uint64{1001}}, // bound to the address
		{loop, 8080, []uint64{1002}},  // to every address
		{loop, 8081, []uint64{2001}},  // :: takes IPv4 too
		{[]net.IP{net.IPv6loopback}, 19038, []uint64{2002}},
		{loop, 19039, []uint64{2003}},                 // an IPv4-mapped address
		{loop, 19040, nil},                            // no one
		{[]net.IP{net.IPv4(10, 0, 0, 1)}, 19037, nil}, // another address
	} {
		if got := answering(ls, tt.ips, tt.port); !slices.Equal(got, tt.want) {
			t.Errorf("answering(%v, %d) = %v, want %v", tt.ips, tt.port, got, tt.want)
		}
	}
}

// serverOwns reads a fake root: a listener that the tree's processes hold
// is theirs; one no process of the tree holds is another's.
func TestServerOwns(t *testing.T) {
	root := t.TempDir()
	write := func(name, text string) {
		p := filepath.Join(root, "proc", name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("net/tcp", procTCP)
	write("net/tcp6", procTCP6)
	for pid, targets := range map[string][]string{
		"100": {"/dev/null", "socket:[1001]", "pipe:[7]"}, // the server
		"200": {"socket:[1002]"},                          // another process
	} {
		fd := filepath.Join(root, "proc", pid, "fd")
		if err := os.MkdirAll(fd, 0o755); err != nil {
			t.Fatal(err)
		}
		for i, target := range targets {
			if err := os.Symlink(target, filepath.Join(fd, strconv.Itoa(i))); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, tt := range []struct {
		url     string
		pids    []int
		foreign int // the other process; 0: none
	}{
		{"http://127.0.0.1:19037/", []int{100}, 0},
		{"http://127.0.0.1:19037/", []int{100, 101}, 0}, // 101 ended since
		{"http://127.0.0.1:8080/", []int{100}, 200},
		{"http://127.0.0.1:8080/", []int{100, 200}, 0},
		{"http://127.0.0.1:8081/", []int{100}, 0},  // no process holds it: ending
		{"http://127.0.0.1:19040/", []int{100}, 0}, // no listener: nothing to say
	} {
		err := serverOwns(root, tt.url, func() []int { return tt.pids })
		fe, ok := err.(*ForeignServerError)
		switch {
		case tt.foreign == 0 && err != nil:
			t.Errorf("%s %v: %v", tt.url, tt.pids, err)
		case tt.foreign != 0 && (!ok || fe.Pid != tt.foreign || fe.Inode != 1002):
			t.Errorf("%s %v: %v, want a ForeignServerError of process %d", tt.url, tt.pids, err, tt.foreign)
		}
	}
}
