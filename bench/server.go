package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/gcperf/gcperf/env"
	"github.com/gcperf/gcperf/internal/figure"
	"github.com/gcperf/gcperf/internal/quote"
	"github.com/gcperf/gcperf/internal/safefile"
	"github.com/gcperf/gcperf/report"
	"github.com/gcperf/gcperf/sweep"
	"github.com/gcperf/gcperf/target"
)

// DefaultReadyTimeout is how long a server under test has to answer its
// readiness URL (Options.ReadyTimeout 0).
const DefaultReadyTimeout = 10 * time.Second

// A Server is the program under test that a benchmark's operations load
// (gcperf run OP... -- SERVER): started before the warmups, with
// GODEBUG=gctrace=1 added as gcperf exec does, ready once Ready answers,
// stopped after the timed runs (and the profiled pass).
type Server struct {
	// Command is the server, with its GOGC and GOMEMLIMIT (the settings
	// a sweep's grid sets); its Stdout and Stderr are replaced by Log.
	Command target.Command
	// Ready is polled until it gives any HTTP response, every
	// readyPoll, for at most ReadyTimeout (0: DefaultReadyTimeout).
	Ready        string
	ReadyTimeout time.Duration
	// Log receives the server's output but for its trace lines: a file
	// created at the start, checked with the benchmark's outputs before
	// anything runs (an existing file is replaced only with
	// Options.Overwrite, and only a regular file); a Path of "" makes a
	// new temporary file.
	Log File
	// MemCap stops the server when its process tree's resident set grows
	// above it, in bytes (0: no cap): a failed run.
	MemCap int64
	// Kill, when closed, kills the server and its process tree at once
	// (target.Process.Kill), a stop under way included, without the
	// grace period after SIGTERM (gcperf's third interrupt).
	Kill <-chan struct{}
}

// readyPoll is the time between two readiness requests.
const readyPoll = 20 * time.Millisecond

// ErrServer is wrapped by the error of a server that did not become
// ready, or that ended or outgrew its memory cap before it was stopped.
var ErrServer = errors.New("server")

// A runningServer is a started Server.
type runningServer struct {
	s       *Server
	r       *sweep.Running
	log     *os.File
	stopped bool  // Stop was called, by us
	overMem error // the cap's cause, when it stopped the server
	cancel  context.CancelCauseFunc
	// failed is why the server failed the run, once stopped: the
	// result's own Failed, so that a sweep reads the reason there.
	failed *report.Failure
}

// startServer starts s and waits until it is ready. Its error wraps
// ErrServer (or target.ErrNotStarted) and names the log.
//
// Before the start, another process that answers on the server's address
// is refused (an *InputError of an *AddressInUseError); once the server
// is ready, a socket listening there that is not its tree's fails it (a
// *ForeignServerError).
func startServer(s *Server, overwrite bool, meta report.Meta, event func(Event), stop <-chan struct{}) (*runningServer, error) {
	if err := addressFree(s.Ready); err != nil {
		var ae *AddressInUseError
		errors.As(err, &ae)
		return nil, &serverFailure{sweep.NotStarted, &InputError{Field: "Server", Value: ae.Addr,
			Reason: strings.TrimPrefix(err.Error(), "bench: "), Err: err}}
	}
	var log *os.File
	var err error
	if s.Log.Path == "" {
		log, err = os.CreateTemp("", "gcperf-server-*.log")
	} else if log, err = safefile.CreateLog(s.Log.Path, overwrite); err != nil {
		// Checked before anything ran: something replaced it since.
		return nil, &InputError{Field: "Server", Value: s.Log.Path, Reason: s.Log.name() + ": " + strings.TrimPrefix(err.Error(), s.Log.Path+": "), Err: err}
	}
	if err != nil {
		return nil, fmt.Errorf("%w log: %v", ErrServer, err)
	}
	rs := &runningServer{s: s, log: log}
	ctx, cancel := context.WithCancelCause(context.Background())
	rs.cancel = cancel
	c := s.Command
	c.Stdin, c.Stdout, c.Stderr = nil, log, log
	c.MemCap = s.MemCap
	event(ServerStarting{Path: c.Path, GOGC: c.GOGC, GOMEMLIMIT: c.GOMEMLIMIT, Log: log.Name()})
	start := time.Now()
	rs.r, err = sweep.StartCommand(ctx, c, meta)
	if err != nil {
		log.Close()
		cancel(nil)
		return nil, err
	}
	go func() {
		select {
		case <-s.Kill:
			rs.r.Kill(target.ErrInterrupted)
		case <-rs.r.Done():
		}
	}()
	if err := rs.waitReady(stop); err != nil {
		return nil, rs.notReady(err)
	}
	if err := serverOwns("/", s.Ready, rs.r.Processes); err != nil {
		var fe *ForeignServerError
		errors.As(err, &fe)
		fe.Log = log.Name()
		rs.end()
		return nil, &serverFailure{sweep.ServerNotReady, fmt.Errorf("%w: %w", ErrServer, err)}
	}
	event(ServerReady{After: time.Since(start), URL: s.Ready})
	return rs, nil
}

// end stops a server that failed before the runs and waits for it.
func (rs *runningServer) end() *report.Document {
	rs.r.Stop()
	doc, _ := rs.r.Wait()
	rs.overMem = overMemory(rs.r)
	rs.log.Close()
	rs.cancel(nil)
	return doc
}

// notReady ends a server that did not become ready (waitReady's err) and
// says why: over its memory cap, or exited (with the daemons it left,
// stopped with it), else err.
func (rs *runningServer) notReady(err error) error {
	doc := rs.end()
	log := rs.log.Name()
	switch {
	case rs.overMem != nil:
		return &serverFailure{sweep.OverMemory, fmt.Errorf("%w: %v before it was ready; its output: %s", ErrServer, rs.overMem, log)}
	case doc != nil && doc.Kind() == report.CommandDocument && doc.Exec.Stopped == "":
		status := doc.Exec.Status
		if n := doc.Exec.Leftovers; n > 0 {
			// A daemon: gone with the program gcperf started.
			status += fmt.Sprintf(", leaving %d %s running, stopped with it: a server must stay in the foreground", n, figure.Plural(n, "process", "processes"))
		}
		return &serverFailure{sweep.NotStarted, fmt.Errorf("%w: %s exited before it was ready (%s); its output: %s", ErrServer, quote.Clip(rs.s.Command.Path), status, log)}
	}
	return err
}

// A serverFailure is a server's failure before the runs, with its reason,
// set where it happened: the result records it (writeFailure).
type serverFailure struct {
	reason sweep.Reason
	err    error
}

func (e *serverFailure) Error() string { return e.err.Error() }
func (e *serverFailure) Unwrap() error { return e.err }

// writeFailure writes, when err is a server's failure before the runs, a
// result that holds that failure alone (Document.Failed) to each JSON
// output, so that a sweep reads why its point failed there rather than
// from a message.
func (o *Options) writeFailure(err error) {
	var sf *serverFailure
	if !errors.As(err, &sf) {
		return
	}
	tool := report.Tool{Name: "gcperf", Version: o.Version, Command: o.Command}
	f := report.Failure{Reason: sf.reason.String(), Text: err.Error()}
	for _, t := range o.Outputs {
		if t.Format.Name == "json" && t.Path != "-" {
			safefile.Write(t.Path, nil, o.Overwrite, func(w io.Writer) error { return report.FailureJSON(w, tool, f) })
		}
	}
}

// overMemory is why the runner stopped a server over its memory cap, nil
// when it did not.
func overMemory(r *sweep.Running) error {
	var om *target.OverMemoryError
	if res := r.Result(); res != nil && errors.As(res.Stopped, &om) {
		return fmt.Errorf("the server exceeded the memory cap: RSS of its process tree %s > %s", env.Bytes(om.RSS), env.Bytes(om.Cap))
	}
	return nil
}

// ErrInterrupted is wrapped by startServer's error when an interrupt came
// before the server was ready: nothing ran.
var ErrInterrupted = errors.New("interrupted before the server was ready")

// waitReady polls the readiness URL until any HTTP response, the server's
// end, the timeout, or stop's closing (an interrupt).
func (rs *runningServer) waitReady(stop <-chan struct{}) error {
	timeout := rs.s.ReadyTimeout
	if timeout <= 0 {
		timeout = DefaultReadyTimeout
	}
	deadline := time.Now().Add(timeout)
	client := &http.Client{Timeout: time.Second}
	defer client.CloseIdleConnections()
	var last error
	for {
		ctx, cancel := context.WithDeadline(context.Background(), deadline)
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, rs.s.Ready, nil)
		if err != nil {
			cancel()
			return fmt.Errorf("%w: the readiness URL %s: %v", ErrServer, quote.Clip(rs.s.Ready), err)
		}
		resp, err := client.Do(req)
		cancel()
		if err == nil {
			io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
			resp.Body.Close()
			return nil
		}
		last = err
		select {
		case <-rs.r.Done():
			return &serverFailure{sweep.NotStarted, fmt.Errorf("%w: exited before it was ready", ErrServer)}
		case <-stop:
			return fmt.Errorf("%w: %w", ErrServer, ErrInterrupted)
		case <-time.After(readyPoll):
		}
		if time.Now().After(deadline) {
			return &serverFailure{sweep.ServerNotReady, fmt.Errorf("%w: not ready within %s: %s gave no HTTP response (last: %s); its output: %s",
				ErrServer, timeout, quote.Clip(rs.s.Ready), quote.OneLine(last), rs.log.Name())}
		}
	}
}

// stop stops the server and returns its run, with Success set when it ran
// until it was stopped (whatever its exit status then) and within its
// memory cap; err wraps ErrServer when it did not.
func (rs *runningServer) stop() (*report.Exec, error) {
	select {
	case <-rs.r.Done():
	default:
		rs.stopped = true
		rs.r.Stop()
	}
	doc, err := rs.r.Wait()
	rs.overMem = overMemory(rs.r)
	rs.cancel(nil)
	if cerr := rs.log.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("%w log %s: %v", ErrServer, rs.log.Name(), cerr)
	}
	if doc == nil {
		return nil, err
	}
	x := doc.Exec
	x.Log = rs.log.Name()
	switch {
	case rs.overMem != nil:
		x.Success = false
		serr := fmt.Errorf("%w: %v; its output: %s", ErrServer, rs.overMem, rs.log.Name())
		rs.failed = &report.Failure{Reason: sweep.OverMemory.String(), Text: serr.Error()}
		err = errors.Join(err, serr)
	case !rs.stopped:
		x.Success = false
		serr := fmt.Errorf("%w: ended during the runs (%s); its output: %s", ErrServer, x.Status, rs.log.Name())
		rs.failed = &report.Failure{Reason: sweep.Exited.String(), Text: serr.Error()}
		err = errors.Join(err, serr)
	default:
		x.Success = true
		x.Stopped = "by gcperf after the runs"
	}
	// A temporary log is kept only for a server that failed, to read why.
	if x.Success && err == nil && rs.s.Log.Path == "" {
		os.Remove(rs.log.Name())
		x.Log = ""
	}
	return x, err
}

// abandon kills the server that the benchmark gives up (Options.Abort),
// with its process tree, at once, and waits for it; a temporary log goes
// with it, as the benchmark's other temporary files do.
func (rs *runningServer) abandon() {
	rs.r.Kill(ErrAborted)
	rs.r.Wait()
	rs.cancel(nil)
	rs.log.Close()
	if rs.s.Log.Path == "" {
		os.Remove(rs.log.Name())
	}
}
