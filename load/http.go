package load

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gcperf/gcperf/internal/quote"
	"github.com/gcperf/gcperf/internal/redact"
	"github.com/gcperf/gcperf/internal/safefile"
	"github.com/gcperf/gcperf/workload"
)

// The categories of the http operation's failures ([Error.Category]).
const (
	// CategoryConnection: the request got no complete response: the dial
	// failed or was refused, the connection was reset or closed early, the
	// response was malformed.
	CategoryConnection = "connection"
	// CategoryTimeout: a network timeout (the engine's own -timeout is
	// counted under its category of the same name).
	CategoryTimeout = workload.CategoryTimeout
	// CategoryStatus: a complete response with another status than expected.
	CategoryStatus = "status"
)

func init() {
	workload.MustRegister(workload.Spec{
		Name: "http",
		Doc:  "sends one HTTP/1.1 request and reads the whole response: response time at its first byte, runtime at its last; one keep-alive connection per goroutine",
		Params: []workload.Param{
			{Name: "url", Kind: workload.String, Doc: "the URL requested, http:// or https:// (required)"},
			{Name: "method", Kind: workload.String, Default: http.MethodGet, Doc: "the request method"},
			{Name: "body", Kind: workload.String, Doc: "the request body: TEXT, or @FILE for a regular file's content (read once, at most 64MiB)"},
			{Name: "header", Kind: workload.String, Repeat: true, Doc: `a request header, 'Key: value': give -header again for another (or separate them with \n)`},
			{Name: "expect", Kind: workload.Int, Default: "200", Min: "100", Doc: "the status expected; any other is a failure (category status)"},
		},
		New: func(p workload.Params) (workload.Operation, error) {
			c := HTTPConfig{
				URL:    p.String("url"),
				Method: p.String("method"),
				Expect: int(p.Int("expect")),
			}
			if c.URL == "" {
				return nil, &workload.ConfigError{Field: "url", Msg: "is required: -url http://HOST:PORT/PATH"}
			}
			body := p.String("body")
			if file, ok := strings.CutPrefix(body, "@"); ok {
				b, err := readBody(file)
				if err != nil {
					return nil, &workload.ConfigError{Field: "body", Msg: fmt.Sprintf("@%s: %v", file, err)}
				}
				c.Body = b
			} else if body != "" {
				c.Body = []byte(body)
			}
			h, err := ParseHeader(p.String("header"))
			if err != nil {
				return nil, &workload.ConfigError{Field: "header", Msg: err.Error()}
			}
			c.Header = h
			op, err := NewHTTP(c)
			if err != nil {
				return nil, err
			}
			// As given, the empty ones left out; a body by its file or its size.
			op.desc = "url=" + op.shown + " method=" + c.Method
			if strings.HasPrefix(body, "@") {
				op.desc += " body=" + body
			} else if body != "" {
				op.desc += " body=" + strconv.Itoa(len(body)) + "B"
			}
			if hs := p.String("header"); hs != "" {
				op.desc += " header=" + strconv.Quote(hs)
			}
			op.desc += " expect=" + strconv.Itoa(c.Expect)
			return op, nil
		},
	})
}

// MaxBodyBytes is the largest request body the http operation reads from
// a file (-body @FILE): it is read whole, before the runs, and held for
// all of them.
const MaxBodyBytes = 64 << 20

// readBody reads a body file: a regular file of at most MaxBodyBytes. A
// device such as /dev/zero, a named pipe or a directory is refused before
// anything is read (safefile.Open): the first has no end, the second
// would wait for a writer.
func readBody(file string) ([]byte, error) {
	b, err := safefile.Read(file, MaxBodyBytes)
	if err != nil {
		return nil, unwrapPath(err)
	}
	return b, nil
}

// unwrapPath drops the *fs.PathError's operation and path, which the
// message already names.
func unwrapPath(err error) error {
	if u := errors.Unwrap(err); u != nil {
		return u
	}
	return err
}

// HTTPConfig is what the http operation sends.
type HTTPConfig struct {
	URL    string      // http:// or https://, required
	Method string      // "" is GET
	Body   []byte      // sent with every request; not copied, not to be changed
	Header http.Header // added to every request; a Host header sets the request's host
	Expect int         // the status expected; 0 is 200
}

// HTTP is the http operation: each execution sends the request and reads the
// response to its end. Each goroutine of the engine gets its own copy
// (Clone), with its own transport and so its own keep-alive connection. It
// times nothing: it marks the response's first byte (Probe.Respond) and
// counts one result per successful request.
type HTTP struct {
	cfg   HTTPConfig
	shown string // the URL as shown: its password, if any, as xxxxx
	desc  string
	tmpl  *http.Request // the request without a context or a body
	tr    *http.Transport
	buf   []byte

	// The request reused from one execution to the next, while the
	// transport is done with it: built for ctx, with its trace and body.
	ctx  context.Context
	req  *http.Request
	body *bytes.Reader
	st   *reqState
}

// reqState is shared by one built request and its trace's callbacks, which
// run on the transport's goroutines.
type reqState struct {
	mu    sync.Mutex
	probe *workload.Probe // nil outside an execution
	wrote bool            // the transport finished writing the request
}

// NewHTTP checks the configuration and builds the operation. Its errors are
// *workload.ConfigError values naming the parameter (url, method, header).
func NewHTTP(c HTTPConfig) (*HTTP, error) {
	if c.Method == "" {
		c.Method = http.MethodGet
	}
	if c.Expect == 0 {
		c.Expect = http.StatusOK
	}
	if c.Expect < 100 || c.Expect > 999 {
		return nil, &workload.ConfigError{Field: "expect", Msg: fmt.Sprintf("must be a status from 100 to 999, got %d", c.Expect)}
	}
	u, err := ParseURL(c.URL)
	if err != nil {
		return nil, &workload.ConfigError{Field: "url", Msg: err.Error()}
	}
	tmpl, err := http.NewRequest(c.Method, c.URL, nil)
	if err != nil {
		return nil, &workload.ConfigError{Field: "method", Msg: fmt.Sprintf("%q: not a valid method", c.Method)}
	}
	for k, vs := range c.Header {
		if http.CanonicalHeaderKey(k) == "Host" && len(vs) > 0 {
			tmpl.Host = vs[0]
			continue
		}
		for _, v := range vs {
			tmpl.Header.Add(k, v)
		}
	}
	if u.User != nil && tmpl.Header.Get("Authorization") == "" {
		// What http.Client would send for the URL's userinfo.
		pw, _ := u.User.Password()
		tmpl.SetBasicAuth(u.User.Username(), pw)
	}
	h := &HTTP{cfg: c, shown: u.Redacted(), tmpl: tmpl}
	h.init()
	return h, nil
}

// ParseURL parses an http:// or https:// URL that can be dialled: a
// host, and a port from 1 to 65535 if any. Its error quotes the URL, its
// password hidden, and says what is wrong with it.
func ParseURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		return nil, fmt.Errorf("%q: %w", redact.URL(raw), unwrapURL(err))
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, fmt.Errorf("%q: must start with http:// or https://", u.Redacted())
	case u.Hostname() == "":
		return nil, fmt.Errorf("%q: has no host", u.Redacted())
	}
	if msg := badPort(u); msg != "" {
		return nil, fmt.Errorf("%q: %s", u.Redacted(), msg)
	}
	return u, nil
}

// badPort says what is wrong with u's port, "" when nothing is: a port
// that cannot be dialled is refused before anything starts.
func badPort(u *url.URL) string {
	if !strings.Contains(strings.TrimPrefix(u.Host, "["+u.Hostname()+"]"), ":") {
		return "" // none: the scheme's
	}
	p := u.Port()
	if p == "" {
		return "has an empty port"
	}
	n, err := strconv.Atoi(p)
	if err != nil || n < 1 || n > 65535 {
		return fmt.Sprintf("port %s is not from 1 to 65535", p)
	}
	return ""
}

func unwrapURL(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// init gives the operation its own transport and read buffer.
func (h *HTTP) init() {
	var protos http.Protocols
	protos.SetHTTP1(true)
	d := &net.Dialer{KeepAlive: 30 * time.Second}
	h.tr = &http.Transport{
		DialContext:         d.DialContext,
		Protocols:           &protos,
		DisableCompression:  true, // no Accept-Encoding added, no gzip decoded behind the caller's back
		MaxIdleConnsPerHost: 4,    // one goroutine needs one; a little room for a connection not yet released
		IdleConnTimeout:     90 * time.Second,
		TLSHandshakeTimeout: 10 * time.Second,
	}
	h.buf = make([]byte, 32<<10)
}

func (*HTTP) Name() string { return "http" }

// Unit is what the results count: successful requests.
func (*HTTP) Unit() string { return "requests" }

// Describe shows the parameters.
func (h *HTTP) Describe() string {
	if h.desc != "" {
		return h.desc
	}
	s := "url=" + h.shown + " method=" + h.cfg.Method + " expect=" + strconv.Itoa(h.cfg.Expect)
	if len(h.cfg.Body) > 0 {
		s += " body=" + strconv.Itoa(len(h.cfg.Body)) + "B"
	}
	return s
}

// Loads is the address the operation dials, host:port (the URL's port,
// or its scheme's), and its URL as shown, its password hidden: gcperf
// refuses to serve its own HTTP endpoint there (bench.Loader).
func (h *HTTP) Loads() (addr, shown string) {
	u := h.tmpl.URL
	port := u.Port()
	if port == "" {
		port = "80"
		if u.Scheme == "https" {
			port = "443"
		}
	}
	return net.JoinHostPort(u.Hostname(), port), h.shown
}

// Config returns the configuration the operation sends.
func (h *HTTP) Config() HTTPConfig { return h.cfg }

// Clone gives a goroutine its own copy: its own transport and connection.
func (h *HTTP) Clone() workload.Operation {
	c := &HTTP{cfg: h.cfg, shown: h.shown, desc: h.desc, tmpl: h.tmpl}
	c.init()
	return c
}

// Teardown closes the idle connections.
func (h *HTTP) Teardown() error {
	h.tr.CloseIdleConnections()
	return nil
}

// build makes the request reused by the next executions: for ctx, with a
// trace of its own and a reader over the body.
func (h *HTTP) build(ctx context.Context) {
	st := new(reqState)
	trace := &httptrace.ClientTrace{
		GotFirstResponseByte: func() {
			st.mu.Lock()
			if st.probe != nil {
				st.probe.Respond()
			}
			st.mu.Unlock()
		},
		WroteRequest: func(httptrace.WroteRequestInfo) {
			st.mu.Lock()
			st.wrote = true
			st.mu.Unlock()
		},
	}
	req := h.tmpl.WithContext(httptrace.WithClientTrace(ctx, trace))
	h.body = nil
	if len(h.cfg.Body) > 0 {
		b := h.cfg.Body
		h.body = bytes.NewReader(b)
		req.Body = io.NopCloser(h.body)
		req.ContentLength = int64(len(b))
		req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil }
	}
	h.ctx, h.req, h.st = ctx, req, st
}

// Run sends the request and reads the response to its end.
func (h *HTTP) Run(ctx context.Context, p *workload.Probe) error {
	if h.req == nil || h.ctx != ctx {
		h.build(ctx)
	}
	st := h.st
	st.mu.Lock()
	st.probe, st.wrote = p, false
	st.mu.Unlock()
	if h.body != nil {
		h.body.Reset(h.cfg.Body)
	}
	err := h.do(ctx, p)
	st.mu.Lock()
	st.probe = nil
	wrote := st.wrote
	st.mu.Unlock()
	if err != nil || !wrote {
		// The transport may still hold the request (writing its body,
		// calling its trace): the next execution builds another.
		h.req = nil
	}
	return err
}

func (h *HTTP) do(ctx context.Context, p *workload.Probe) error {
	resp, err := h.tr.RoundTrip(h.req)
	if err != nil {
		return h.fail(ctx, err)
	}
	for {
		_, err = resp.Body.Read(h.buf)
		if err != nil {
			break
		}
	}
	resp.Body.Close()
	if err != io.EOF {
		return h.fail(ctx, err)
	}
	if resp.StatusCode != h.cfg.Expect {
		return &Error{Cat: CategoryStatus, Method: h.cfg.Method, URL: h.shown, Status: resp.StatusCode,
			Err: fmt.Errorf("unexpected status %s, expected %d", resp.Status, h.cfg.Expect)}
	}
	p.Results(1)
	return nil
}

// fail categorises a transport error. A done context is the engine's
// business (its timeout, or an interrupt): its error is returned, wrapped,
// for the engine to categorise.
func (h *HTTP) fail(ctx context.Context, err error) error {
	if cerr := ctx.Err(); cerr != nil {
		return fmt.Errorf("%s %s: %w", h.cfg.Method, h.shown, cerr)
	}
	cat := CategoryConnection
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		cat = CategoryTimeout
	}
	return &Error{Cat: cat, Method: h.cfg.Method, URL: h.shown, Err: err}
}

// Error is a failed request: its category (CategoryConnection,
// CategoryTimeout, CategoryStatus), what was requested and why it failed.
type Error struct {
	Cat         string
	Method, URL string
	Status      int // the status received, for CategoryStatus
	Err         error
}

func (e *Error) Error() string    { return e.Method + " " + e.URL + ": " + e.Err.Error() }
func (e *Error) Unwrap() error    { return e.Err }
func (e *Error) Category() string { return e.Cat }

// ParseHeader reads request headers written as 'Key: value', several
// separated by a newline or by the two characters \n (a command-line
// argument or a mix file's line holds no newline). Blank entries are
// skipped. A key must be an HTTP token; a value may be empty and holds no
// control character but HTAB (RFC 9110's field-value): a CR or a NUL is
// refused, with the header it is in, not sent.
func ParseHeader(s string) (http.Header, error) {
	if s == "" {
		return nil, nil
	}
	h := http.Header{}
	for _, line := range strings.Split(strings.ReplaceAll(s, `\n`, "\n"), "\n") {
		// Checked before any trimming: a CR typed into one -header (a CR
		// LF, a header injected after it) is refused, not trimmed away.
		if i := strings.IndexFunc(line, isCTL); i >= 0 {
			k, _, _ := strings.Cut(line, ":")
			return nil, fmt.Errorf("%q: header %q holds the control character %q", quote.Clip(line), quote.Clip(strings.Trim(k, ows)), line[i:i+1])
		}
		line = strings.Trim(line, ows)
		if line == "" {
			continue
		}
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			return nil, fmt.Errorf("%q: not Key: value", quote.Clip(line))
		}
		k, v = strings.Trim(k, ows), strings.Trim(v, ows)
		if !isToken(k) {
			return nil, fmt.Errorf("%q: %q is not a header name", quote.Clip(line), quote.Clip(k))
		}
		h.Add(k, v)
	}
	return h, nil
}

// ows is RFC 9110's optional whitespace around a field value.
const ows = " \t"

// isCTL reports whether r is a control character RFC 9110 allows in no
// header name or value (HTAB apart, the whitespace of a value).
func isCTL(r rune) bool { return r < ' ' && r != '\t' || r == 0x7f }

// isToken reports whether s is an RFC 9110 token: a header name.
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0:
		default:
			return false
		}
	}
	return true
}
