package target

import (
	"errors"
	"io"
	"os"
	"syscall"
	"time"
)

// The times between two reads of a child's output: after a read that
// found some, and at most, while it finds none.
const (
	pollAfterData = 10 * time.Millisecond
	pollIdle      = 100 * time.Millisecond
)

// fSetPipeSize is fcntl's F_SETPIPE_SZ (F_LINUX_SPECIFIC_BASE + 7).
const fSetPipeSize = 1024 + 7

// polledPipe is a pipe whose parent's end is read by polling, outside Go's
// netpoller. A Go runtime writes each gctrace line in about 20 pieces, a
// write(2) each, and an end in the netpoller wakes the parent at every
// write even when no goroutine reads it: about 60ms of the parent's CPU
// for a second of a child collecting 450 times (measured on 2 cores,
// BenchmarkOverhead). Read every pollAfterData while the child writes, and
// backing off to pollIdle while it does not, the pipe wakes the parent at
// most 100 times a second, and a line comes in one read. A read that fills
// the buffer is followed by the next at once, and the pipe holds 1MiB
// where the kernel allows it, so a child that writes much is not held up.
// The output reaches its writer at most pollIdle late.
type polledPipe struct {
	r int      // the parent's end, non-blocking
	w *os.File // the child's end, blocking
}

func newOutPipe() (outPipe, error) {
	var fds [2]int
	if err := syscall.Pipe2(fds[:], syscall.O_CLOEXEC); err != nil {
		return nil, os.NewSyscallError("pipe2", err)
	}
	if err := syscall.SetNonblock(fds[0], true); err != nil {
		syscall.Close(fds[0])
		syscall.Close(fds[1])
		return nil, os.NewSyscallError("fcntl", err)
	}
	syscall.Syscall(syscall.SYS_FCNTL, uintptr(fds[0]), fSetPipeSize, 1<<20) // a smaller pipe will do
	return &polledPipe{r: fds[0], w: os.NewFile(uintptr(fds[1]), "|child")}, nil
}

func (p *polledPipe) child() *os.File { return p.w }
func (p *polledPipe) close()          { syscall.Close(p.r) }

func (p *polledPipe) copyTo(w io.Writer, hurry, stop <-chan struct{}) {
	defer syscall.Close(p.r)
	buf := make([]byte, 64<<10)
	delay := pollAfterData
	t := time.NewTimer(delay)
	defer t.Stop()
	for {
		n, err := syscall.Read(p.r, buf)
		switch {
		case errors.Is(err, syscall.EINTR):
			continue
		case errors.Is(err, syscall.EAGAIN):
			delay = min(2*delay, pollIdle)
		case err != nil || n == 0:
			return // the end of the pipe
		default:
			w.Write(buf[:n])
			if n == len(buf) {
				continue
			}
			delay = pollAfterData
		}
		if hurry == nil {
			delay = time.Millisecond
		}
		t.Reset(delay)
		select {
		case <-t.C:
		case <-hurry:
			hurry = nil
		case <-stop:
			return
		}
	}
}
