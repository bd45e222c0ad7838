package target

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"
)

// ioSet connects a child's stdin, stdout and stderr. A file is given to the
// child as it is; any other reader or writer goes through a pipe of the
// parent's, copied by a goroutine (as os/exec does, but so that the parent
// sees the child end before its output is drained, reads the output in
// batches, and bounds the wait for output that a process outside its
// reach keeps open).
type ioSet struct {
	childEnds []*os.File // the pipe ends the child holds, closed in the parent once it started
	outs      []outPipe  // the stdout and stderr pipes
	copies    []func()   // their copying goroutines' work
	wg        sync.WaitGroup
	// hurry is closed when the child has ended, stop when its output is
	// no longer waited for.
	hurry, stop chan struct{}

	stdinSrc io.Reader
	stdinW   *os.File

	stdout, stderr *errWriter
}

// An outPipe is a pipe for one of the child's outputs: newOutPipe's, one
// per system.
type outPipe interface {
	// child is the end the child writes to.
	child() *os.File
	// copyTo copies what comes out of the pipe to w until the pipe ends
	// (every process holding the child's end has closed it) or stop is
	// closed. Once hurry is closed it waits no more than a millisecond
	// between two reads.
	copyTo(w io.Writer, hurry, stop <-chan struct{})
	// close closes the parent's end, for a child that did not start.
	close()
}

func (s *ioSet) setup(c *Command, cmd *exec.Cmd) (err error) {
	s.hurry, s.stop = make(chan struct{}), make(chan struct{})
	defer func() {
		if err != nil {
			s.abort()
		}
	}()
	switch in := c.Stdin.(type) {
	case nil:
	case *os.File:
		if in != nil {
			cmd.Stdin = in
		}
	default:
		r, w, err := os.Pipe()
		if err != nil {
			return err
		}
		cmd.Stdin, s.stdinSrc, s.stdinW = r, in, w
		s.childEnds = append(s.childEnds, r)
	}
	if s.stdout, err = s.output(&cmd.Stdout, c.Stdout); err != nil {
		return err
	}
	s.stderr, err = s.output(&cmd.Stderr, c.Stderr)
	return err
}

// output connects one of the child's outputs, *child, to w: a file (or
// nil, the null device) as it is, any other writer through a pipe.
func (s *ioSet) output(child *io.Writer, w io.Writer) (*errWriter, error) {
	if f, ok := w.(*os.File); ok || w == nil {
		if f != nil {
			*child = f
		}
		return nil, nil
	}
	ew := &errWriter{w: w}
	return ew, s.pipe(child, ew)
}

// pipe gives the child the write end of a new pipe as *child, and copies
// what it writes there to w.
func (s *ioSet) pipe(child *io.Writer, w io.Writer) error {
	p, err := newOutPipe()
	if err != nil {
		return err
	}
	*child = p.child()
	s.childEnds = append(s.childEnds, p.child())
	s.outs = append(s.outs, p)
	s.copies = append(s.copies, func() { p.copyTo(w, s.hurry, s.stop) })
	return nil
}

// started closes the parent's copies of the child's ends and starts
// copying.
func (s *ioSet) started() {
	for _, f := range s.childEnds {
		f.Close()
	}
	if s.stdinW != nil {
		// It ends when the source does or the child's end is closed; a
		// source that never returns keeps it, as with os/exec.
		go func() {
			io.Copy(s.stdinW, s.stdinSrc)
			s.stdinW.Close()
		}()
	}
	for _, c := range s.copies {
		s.wg.Go(c)
	}
}

// abort closes every pipe end of a child that did not start.
func (s *ioSet) abort() {
	for _, f := range s.childEnds {
		f.Close()
	}
	for _, p := range s.outs {
		p.close()
	}
	if s.stdinW != nil {
		s.stdinW.Close()
	}
}

// finish waits until the child's stdout and stderr are drained, for at
// most wait after the tree has ended (a process out of the parent's reach
// may hold them), and returns the first error of their writers. Nothing is
// written to them after it returns.
func (s *ioSet) finish(wait time.Duration) error {
	if s.stdinW != nil {
		s.stdinW.Close() // the child has ended: nothing more to give it
	}
	close(s.hurry)
	drained := make(chan struct{})
	go func() {
		s.wg.Wait()
		close(drained)
	}()
	select {
	case <-drained:
	case <-time.After(wait):
	}
	close(s.stop)
	<-drained
	switch {
	case s.stdout != nil && s.stdout.err != nil:
		return fmt.Errorf("target: writing the command's stdout: %w", s.stdout.err)
	case s.stderr != nil && s.stderr.err != nil:
		return fmt.Errorf("target: writing the command's stderr: %w", s.stderr.err)
	}
	return nil
}

// errWriter writes to w until it fails, then drops the rest, so that the
// child's output is always drained: a child never blocks on a full pipe
// because the parent cannot write.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err == nil {
		_, e.err = e.w.Write(p)
	}
	return len(p), nil
}
