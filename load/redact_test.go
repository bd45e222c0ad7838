package load_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/gcperf/gcperf/load"
	"github.com/gcperf/gcperf/workload"
)

// TestURLPasswordRedacted: a password in -url's userinfo is sent, and
// shown nowhere the operation is recorded or printed: its parameters (the
// result's params, the report's heading), a failed request's error, an
// error of the operation's configuration.
func TestURLPasswordRedacted(t *testing.T) {
	const secret = "s3cr3t"
	gotAuth := make(chan string, 1)
	srv, _ := server(t, func(w http.ResponseWriter, r *http.Request) {
		if u, p, ok := r.BasicAuth(); ok {
			select {
			case gotAuth <- u + ":" + p:
			default:
			}
		}
		w.WriteHeader(http.StatusTeapot)
	})
	withPw := strings.Replace(srv.URL, "http://", "http://user:"+secret+"@", 1)

	op := newOp(t, map[string]string{"url": withPw})
	res := run(t, op, 3, 1, 0)
	select {
	case auth := <-gotAuth:
		if auth != "user:"+secret {
			t.Errorf("the server got basic auth %q, want user:%s", auth, secret)
		}
	default:
		t.Errorf("the server got no basic auth, want user:%s", secret)
	}
	o := res.Operations[0]
	shown := map[string]string{"Describe": op.(workload.Describer).Describe(), "params": o.Params}
	for cat, msg := range o.FirstError {
		shown["error "+cat] = msg
	}
	for _, c := range []load.HTTPConfig{
		{URL: withPw, Expect: 1},
		{URL: strings.Replace(withPw, "http://", "ftp://", 1)},
		{URL: withPw + "%zz"},
	} {
		if _, err := load.NewHTTP(c); err != nil {
			shown["NewHTTP "+c.URL] = err.Error()
		}
	}
	if _, err := workload.New("http", map[string]string{"url": withPw + "%zz"}); err != nil {
		shown["New"] = err.Error()
	}
	h, err := load.NewHTTP(load.HTTPConfig{URL: withPw})
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Run(context.Background(), new(workload.Probe)); err != nil {
		shown["Run"] = err.Error()
	}
	for where, s := range shown {
		if strings.Contains(s, secret) {
			t.Errorf("%s shows the password: %s", where, s)
		}
	}
	if !strings.Contains(shown["params"], "user:xxxxx@") {
		t.Errorf("params %q: want the user, and the password as xxxxx (url.URL.Redacted)", shown["params"])
	}
	if len(shown) < 7 {
		t.Errorf("checked %d texts, want 7: %v", len(shown), shown)
	}
}
