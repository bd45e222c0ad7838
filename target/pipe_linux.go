package target

import (
	"errors"
	"io"
	"os"
	"syscall"
	"time"
)

// The times between two reads of a child's output: after a read that
// found some, at most, while it finds none, and at least, while it comes
// faster than a pipe holds.
const (
	pollAfterData = 10 * time.Millisecond
	pollIdle      = 100 * time.Millisecond
	pollFast      = 50 * time.Microsecond
)

// fSetPipeSize and fGetPipeSize are fcntl's F_SETPIPE_SZ and F_GETPIPE_SZ
// (F_LINUX_SPECIFIC_BASE + 7, + 8).
const (
	fSetPipeSize = 1024 + 7
	fGetPipeSize = 1024 + 8
)

// polledPipe is a pipe whose parent's end is read by polling, outside Go's
// netpoller. A Go runtime writes each gctrace line in about 20 pieces, a
// write(2) each, and an end in the netpoller wakes the parent at every
// write even when no goroutine reads it: about 60ms of the parent's CPU
// for a second of a child collecting 450 times (measured on 2 cores,
// BenchmarkOverhead). Read every pollAfterData while the child writes, and
// backing off to pollIdle while it does not, the pipe wakes the parent at
// most 100 times a second, and a line comes in one read. Each wake reads
// until the pipe is empty; when a wake finds a quarter of the pipe or more,
// the child writes faster than the polls keep up with, and the time to the
// next is cut by four (down to pollFast), so that the pipe never fills
// and a child that writes much is not held up: it doubles again, up to
// pollAfterData, while a wake finds less. The pipe holds 1MiB where the
// kernel allows it. The output reaches its writer at most pollIdle late.
type polledPipe struct {
	r    int      // the parent's end, non-blocking
	w    *os.File // the child's end, blocking
	size int      // the bytes the pipe holds
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
	size, _, errno := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fds[0]), fGetPipeSize, 0)
	if errno != 0 || size == 0 {
		size = 64 << 10 // Linux's default
	}
	return &polledPipe{r: fds[0], w: os.NewFile(uintptr(fds[1]), "|child"), size: int(size)}, nil
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
		n, ok := p.drain(w, buf)
		if !ok {
			return // the end of the pipe
		}
		delay = nextPoll(delay, n, p.size)
		if hurry == nil {
			delay = min(delay, time.Millisecond)
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

// drain reads the pipe until it is empty, passing what it reads to w, and
// returns the bytes read; ok is false at the end of the pipe.
func (p *polledPipe) drain(w io.Writer, buf []byte) (total int, ok bool) {
	for {
		n, err := syscall.Read(p.r, buf)
		switch {
		case errors.Is(err, syscall.EINTR):
			continue
		case errors.Is(err, syscall.EAGAIN):
			return total, true
		case err != nil || n == 0:
			return total, false
		}
		w.Write(buf[:n])
		total += n
	}
}

// nextPoll returns the time to the next read of a pipe of size bytes,
// after delay and a wake that read n bytes.
func nextPoll(delay time.Duration, n, size int) time.Duration {
	switch {
	case n >= size/4:
		return max(delay/4, pollFast)
	case n > 0:
		return min(2*delay, pollAfterData)
	}
	return min(2*delay, pollIdle)
}
