package target

import (
	"slices"
	"testing"
)

func TestEnviron(t *testing.T) {
	tests := []struct {
		name        string
		env         []string
		gogc, limit string
		trace       bool
		want        []string
		wantSet     Settings
		wantNote    bool
	}{
		{name: "nothing to add", env: []string{"HOME=/h", "GOGC=50"},
			want: []string{"HOME=/h", "GOGC=50"}, wantSet: Settings{GOGC: "50"}},
		{name: "trace added", env: []string{"HOME=/h"}, trace: true,
			want: []string{"HOME=/h", "GODEBUG=gctrace=1"}, wantSet: Settings{GODEBUG: "gctrace=1"}},
		{name: "trace merged", env: []string{"GODEBUG=madvdontneed=1", "HOME=/h"}, trace: true,
			want: []string{"HOME=/h", "GODEBUG=madvdontneed=1,gctrace=1"}, wantSet: Settings{GODEBUG: "madvdontneed=1,gctrace=1"}},
		{name: "trailing comma", env: []string{"GODEBUG=madvdontneed=1,"}, trace: true,
			want: []string{"GODEBUG=madvdontneed=1,gctrace=1"}, wantSet: Settings{GODEBUG: "madvdontneed=1,gctrace=1"}},
		{name: "empty GODEBUG", env: []string{"GODEBUG="}, trace: true,
			want: []string{"GODEBUG=gctrace=1"}, wantSet: Settings{GODEBUG: "gctrace=1"}},
		{name: "the user's gctrace=1", env: []string{"GODEBUG=gctrace=1,x=2"}, trace: true,
			want: []string{"GODEBUG=gctrace=1,x=2"}, wantSet: Settings{GODEBUG: "gctrace=1,x=2"}},
		{name: "the user's gctrace=0 is kept", env: []string{"GODEBUG=gctrace=0"}, trace: true,
			want: []string{"GODEBUG=gctrace=0"}, wantSet: Settings{GODEBUG: "gctrace=0"}, wantNote: true},
		{name: "the user's last gctrace counts", env: []string{"GODEBUG=gctrace=1, gctrace=2"}, trace: true,
			want: []string{"GODEBUG=gctrace=1, gctrace=2"}, wantSet: Settings{GODEBUG: "gctrace=1, gctrace=2"}, wantNote: true},
		{name: "no trace, GODEBUG untouched", env: []string{"GODEBUG=madvdontneed=1"},
			want: []string{"GODEBUG=madvdontneed=1"}, wantSet: Settings{GODEBUG: "madvdontneed=1"}},
		{name: "settings replace the environment's", env: []string{"GOGC=50", "A=1", "GOMEMLIMIT=1GiB"}, gogc: "off", limit: "256MiB",
			want: []string{"A=1", "GOGC=off", "GOMEMLIMIT=256MiB"}, wantSet: Settings{GOGC: "off", GOMEMLIMIT: "256MiB"}},
		{name: "settings added", env: []string{"A=1"}, gogc: "200", limit: "off", trace: true,
			want:    []string{"A=1", "GOGC=200", "GOMEMLIMIT=off", "GODEBUG=gctrace=1"},
			wantSet: Settings{GOGC: "200", GOMEMLIMIT: "off", GODEBUG: "gctrace=1"}},
		{name: "duplicates: the last counts, once", env: []string{"A=1", "GODEBUG=x=1", "A=2", "GODEBUG=y=1"}, trace: true,
			want: []string{"A=2", "GODEBUG=y=1,gctrace=1"}, wantSet: Settings{GODEBUG: "y=1,gctrace=1"}},
		{name: "an empty GOGC stays", env: []string{"GOGC="},
			want: []string{"GOGC="}},
		{name: "empty environment", env: []string{},
			want: []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &Command{Env: tt.env, GOGC: tt.gogc, GOMEMLIMIT: tt.limit}
			if tt.trace {
				c.GCTrace = true
			}
			env, set, note := c.Environ()
			if !slices.Equal(env, tt.want) {
				t.Errorf("env = %q, want %q", env, tt.want)
			}
			if set != tt.wantSet {
				t.Errorf("settings = %+v, want %+v", set, tt.wantSet)
			}
			if (note != "") != tt.wantNote {
				t.Errorf("note = %q, want one: %v", note, tt.wantNote)
			}
		})
	}
}

func TestEnvironNilIsTheParents(t *testing.T) {
	t.Setenv("GCPERF_TARGET_ENV_TEST", "yes")
	env, _, _ := (&Command{}).Environ()
	if !slices.Contains(env, "GCPERF_TARGET_ENV_TEST=yes") {
		t.Errorf("env %q lacks the parent's GCPERF_TARGET_ENV_TEST=yes", env)
	}
}
