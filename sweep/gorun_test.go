package sweep

import (
	"strings"
	"testing"
)

// TestGoBuildsFirst: go run and go test are caught through the commands
// that run another and past the go command's own flags (issue 24, item
// 26), and nothing else is.
func TestGoBuildsFirst(t *testing.T) {
	for _, tc := range []struct {
		argv string
		want string // a word of the answer, "" for none
	}{
		{"go run .", "go run"},
		{"/usr/local/go/bin/go test ./...", "go test"},
		{"go test -c ./x", ""},
		{"go build .", ""},
		{"go -C /tmp run .", "go run"},
		{"go -C=/tmp run .", "go run"},
		{"go -C /tmp test -c", ""},
		{"env go run .", "go run"},
		{"/usr/bin/env -i GOGC=50 HOME=/x go run .", "go run"},
		{"env -u HOME -C /tmp -- A=1 go test ./...", "go test"},
		{"env - PATH=/bin go run .", "go run"},
		{"env -S go·run·.", "go run"},
		{"env --split-string=go·-C·/tmp·run·.", "go run"},
		{"nice go run .", "go run"},
		{"nice -n 5 go run .", "go run"},
		{"nice --adjustment=5 env A=1 go run .", "go run"},
		{"time -p go run .", "go run"},
		{"/usr/bin/time -f %e -o t.txt go test ./x", "go test"},
		{"timeout 10s go run .", "go run"},
		{"timeout -s INT -k 5 10s go run .", "go run"},
		{"nohup stdbuf -o L go run .", "go run"},
		{"taskset -c 0 go run .", "go run"},
		{"chrt -f 10 go run .", "go run"},
		{"ionice -c 3 setsid go run .", "go run"},
		{"env", ""},
		{"env A=1", ""},
		{"nice", ""},
		{"timeout 10s", ""},
		{"env ./prog run", ""},
		{"time ./go-prog run .", ""},
		{"env GOFLAGS=-x ./prog", ""},
	} {
		argv := strings.Fields(strings.ReplaceAll(tc.argv, "·", "\x00"))
		for i, a := range argv {
			argv[i] = strings.ReplaceAll(a, "\x00", " ")
		}
		got := GoBuildsFirst(argv)
		if tc.want == "" && got != "" || tc.want != "" && !strings.HasPrefix(got, tc.want+" builds") {
			t.Errorf("GoBuildsFirst(%q) = %q, want one starting %q", argv, got, tc.want)
		}
	}
}
