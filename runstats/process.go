package runstats

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// userHZ is the unit of the CPU times in /proc/<pid>/stat: clock ticks of
// 1/100 s, the value procfs assumes too (USER_HZ is 100 on every Linux
// architecture Go supports).
const userHZ = 100

// Process is a reading of a process's counters (/proc/<pid>/stat and
// /proc/<pid>/status); gcperf takes one before and one after the timed runs.
type Process struct {
	RSSBytes               uint64        `json:"rss_bytes"`
	PeakRSSBytes           uint64        `json:"peak_rss_bytes"` // VmHWM
	MinorFaults            uint64        `json:"minor_faults"`
	MajorFaults            uint64        `json:"major_faults"`
	VoluntaryCtxSwitches   uint64        `json:"voluntary_ctx_switches"`
	InvoluntaryCtxSwitches uint64        `json:"involuntary_ctx_switches"`
	UserCPU                time.Duration `json:"user_cpu_ns"`
	SystemCPU              time.Duration `json:"system_cpu_ns"`
}

// A ProcessReader reads one process's counters from root/proc/<pid>/stat
// and root/proc/<pid>/status. It opens both files once and keeps them open:
// each Read reads them again from the start into a buffer it owns and parses
// them in place, so that Read allocates nothing after NewProcessReader (the
// buffer grows only if a file outgrows it). A ProcessReader is not safe for
// concurrent use; Close it when done.
type ProcessReader struct {
	pid          int
	stat, status *os.File
	buf          []byte
	page         uint64
}

// NewProcessReader opens process pid's counters under root ("/" for the
// live machine).
func NewProcessReader(root string, pid int) (*ProcessReader, error) {
	dir := filepath.Join(root, "proc", strconv.Itoa(pid))
	stat, err := os.Open(filepath.Join(dir, "stat"))
	if err != nil {
		return nil, fmt.Errorf("runstats: process %d: %w", pid, err)
	}
	status, err := os.Open(filepath.Join(dir, "status"))
	if err != nil {
		stat.Close()
		return nil, fmt.Errorf("runstats: process %d: %w", pid, err)
	}
	return &ProcessReader{
		pid: pid, stat: stat, status: status,
		buf:  make([]byte, 4096), // status is about 1.5KiB, stat 300 bytes
		page: uint64(os.Getpagesize()),
	}, nil
}

// Read fills p with the process's counters. It does not allocate; on an
// error it leaves p as it was.
func (r *ProcessReader) Read(p *Process) error {
	b, err := r.read(r.stat)
	if err != nil {
		return err
	}
	st, err := parseStat(b)
	if err != nil {
		return fmt.Errorf("runstats: process %d: %s: %w", r.pid, r.stat.Name(), err)
	}
	if b, err = r.read(r.status); err != nil {
		return err
	}
	ss := parseStatus(b)
	*p = Process{
		RSSBytes:               uint64(max(st.rss, 0)) * r.page,
		PeakRSSBytes:           ss.hwmKB << 10,
		MinorFaults:            st.minflt,
		MajorFaults:            st.majflt,
		VoluntaryCtxSwitches:   ss.voluntary,
		InvoluntaryCtxSwitches: ss.involuntary,
		UserCPU:                ticks(st.utime),
		SystemCPU:              ticks(st.stime),
	}
	return nil
}

// read reads f from its start into r.buf with one read(2), as /proc files
// are generated whole at each read from offset 0: a file that fills the
// buffer may have been cut, so the buffer doubles and the read starts over.
func (r *ProcessReader) read(f *os.File) ([]byte, error) {
	for {
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return nil, fmt.Errorf("runstats: process %d: %w", r.pid, err)
		}
		n, err := f.Read(r.buf)
		if err != nil && err != io.EOF {
			return nil, fmt.Errorf("runstats: process %d: %w", r.pid, err)
		}
		if n < len(r.buf) {
			return r.buf[:n], nil
		}
		r.buf = make([]byte, 2*len(r.buf))
	}
}

// Close closes the files the reader holds open.
func (r *ProcessReader) Close() error {
	return errors.Join(r.stat.Close(), r.status.Close())
}

// ReadProcess reads process pid's counters under root ("/" for the live
// machine): root/proc/<pid>/stat and root/proc/<pid>/status. It opens the
// files and allocates their buffer; a caller that reads the same process
// again and again keeps a ProcessReader instead.
func ReadProcess(root string, pid int) (Process, error) {
	r, err := NewProcessReader(root, pid)
	if err != nil {
		return Process{}, err
	}
	defer r.Close()
	var p Process
	if err := r.Read(&p); err != nil {
		return Process{}, err
	}
	return p, nil
}

// ReadSelf reads the running process's counters from the live /proc.
func ReadSelf() (Process, error) {
	return ReadProcess("/", os.Getpid())
}

// procStat holds the fields of /proc/<pid>/stat a Process uses.
type procStat struct {
	minflt, majflt, utime, stime uint64 // faults; CPU in clock ticks
	rss                          int64  // pages
}

// parseStat parses /proc/<pid>/stat (proc(5)): the pid, the command in
// parentheses (which may hold spaces and parentheses itself, so the fields
// start after the last ')'), then space-separated fields of which it reads
// minflt (10th of the line), majflt (12th), utime (14th), stime (15th) and
// rss (24th). It does not allocate unless the line is malformed. A
// negative rss, which the kernel never writes, is kept for the caller to
// treat as none.
func parseStat(b []byte) (procStat, error) {
	r := bytes.LastIndexByte(b, ')')
	if bytes.IndexByte(b, '(') < 0 || r < 0 {
		return procStat{}, fmt.Errorf("no command in parentheses: %w", fs.ErrInvalid)
	}
	// Fields after the command, counting state as 1 (proc(5) numbers it 3).
	const (
		minflt = 8
		majflt = 10
		utime  = 12
		stime  = 13
		rss    = 22
	)
	var s procStat
	rest := b[r+1:]
	for i := 1; i <= rss; i++ {
		var f []byte
		f, rest = nextField(rest)
		if f == nil {
			return procStat{}, fmt.Errorf("%d fields after the command, want at least %d: %w", i-1, rss, fs.ErrInvalid)
		}
		var err error
		switch i {
		case minflt:
			s.minflt, err = strconv.ParseUint(string(f), 10, 64)
		case majflt:
			s.majflt, err = strconv.ParseUint(string(f), 10, 64)
		case utime:
			s.utime, err = strconv.ParseUint(string(f), 10, 64)
		case stime:
			s.stime, err = strconv.ParseUint(string(f), 10, 64)
		case rss:
			s.rss, err = strconv.ParseInt(string(f), 10, 64)
		}
		if err != nil {
			return procStat{}, fmt.Errorf("field %d: %w", i+2, errors.Join(err, fs.ErrInvalid))
		}
	}
	return s, nil
}

// nextField returns the first space-separated field of b and what follows
// it; a nil field when b has none.
func nextField(b []byte) (field, rest []byte) {
	i := 0
	for i < len(b) && (b[i] == ' ' || b[i] == '\n') {
		i++
	}
	j := i
	for j < len(b) && b[j] != ' ' && b[j] != '\n' {
		j++
	}
	if i == j {
		return nil, nil
	}
	return b[i:j], b[j:]
}

// procStatus holds the fields of /proc/<pid>/status a Process uses.
type procStatus struct {
	hwmKB                  uint64 // VmHWM
	voluntary, involuntary uint64 // voluntary_ctxt_switches, nonvoluntary_ctxt_switches
}

// parseStatus parses /proc/<pid>/status (proc(5)): "Key:\tvalue" lines, of
// which it reads VmHWM ("24576 kB") and the two context switch counts. As
// procfs does, a line it cannot read or a key it does not find leaves its
// field 0. It does not allocate.
func parseStatus(b []byte) procStatus {
	var s procStatus
	for len(b) > 0 {
		line := b
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			line, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		k, v, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			continue
		}
		var dst *uint64
		switch string(bytes.TrimSpace(k)) {
		case "VmHWM":
			dst = &s.hwmKB
		case "voluntary_ctxt_switches":
			dst = &s.voluntary
		case "nonvoluntary_ctxt_switches":
			dst = &s.involuntary
		default:
			continue
		}
		v = bytes.TrimSuffix(bytes.TrimSpace(v), []byte(" kB"))
		*dst, _ = strconv.ParseUint(string(v), 10, 64)
	}
	return s
}

// ticks converts clock ticks to a duration.
func ticks(n uint64) time.Duration {
	return time.Duration(n) * (time.Second / userHZ)
}
