package main

import (
	"os"
	"path/filepath"
	"testing"
)

// A script whose #! interpreter is missing is refused before anything
// runs, in one line naming the program and its interpreter, exit 2, by
// every command that starts a program: exec, sweep -- CMD and a server
// (issue 24, item 19: sweep ran and failed every point, exit 1; exec said
// "no such file or directory" of a file that exists).
func TestMissingInterpreter(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "s.sh")
	if err := os.WriteFile(script, []byte("#!/no/such/interp\necho hi\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	why := `cannot start "` + script + `": its #! interpreter "/no/such/interp": no such file or directory`
	out := filepath.Join(dir, "sw")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"exec", []string{"exec", "--", script}, "gcperf: exec: " + why},
		{"sweep", []string{"sweep", "-q", "-gogc", "50,100", "-out", out, "--", script}, "gcperf: " + why},
		{"server", []string{"run", "-q", "-runs", "5", "http", "-url", "http://127.0.0.1:19555/", "--", script},
			`gcperf: cannot start the server "` + script + `": its #! interpreter "/no/such/interp": no such file or directory`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := gcperf(t, nil, tt.args...)
			checkBad(t, code, stdout, stderr, tt.want)
		})
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("sweep made %s", out)
	}
}
