package main

import (
	"flag"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gcperf/gcperf/bench"
	"github.com/gcperf/gcperf/workload"
)

// TestCountFlags: what -count gives each process, and what -out DIR holds
// with it.
func TestCountFlags(t *testing.T) {
	var f benchFlags
	fs := flag.NewFlagSet("gcperf", flag.ContinueOnError)
	f.Register(fs, workload.DefaultConfig())
	for name, want := range map[string]bool{
		"runs": true, "seed": true, "gcstats": true, "profile-runs": true, "duration": true,
		"count": false, "out": false, "overwrite": false, "profile": false, "q": false, "json": false, "bench": false, "csv": false,
	} {
		if fs.Lookup(name) == nil {
			t.Fatalf("no flag -%s", name)
		}
		if got := f.forProcess(name); got != want {
			t.Errorf("forProcess(%q) = %v, want %v", name, got, want)
		}
	}
	var names []string
	for _, o := range countDirOutputs("d", "-out d", 2) {
		names = append(names, filepath.Base(o.Path))
		ext := filepath.Ext(o.Path)
		child := o.Process > 0 && (ext == ".json" || ext == ".log")
		set := o.Process == 0 && o.Format.WriteSet != nil
		own := o.Process > 0 && !child && o.Format.Write != nil
		if o.Label != "-out d: "+o.Path || o.Child != child || !set && !own && !child {
			t.Errorf("%s: label %q, process %d, child %v, format %q", o.Path, o.Label, o.Process, o.Child, o.Format.Name)
		}
	}
	want := "result.json bench.txt report.txt process-1.json process-1.log process-1.csv process-1.xml process-1.hgrm process-1.html process-1.txt " +
		"process-2.json process-2.log process-2.csv process-2.xml process-2.hgrm process-2.html process-2.txt"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("-out d with -count 2 holds\n%s\nwant\n%s", got, want)
	}
	// A count is refused before the files of its processes are listed: a
	// billion of them exhausted the memory before anything ran.
	for _, args := range [][]string{{"-count", "10001"}, {"-count", "20000", "-out", t.TempDir()}} {
		var f benchFlags
		fs := flag.NewFlagSet("gcperf", flag.ContinueOnError)
		f.Register(fs, workload.DefaultConfig())
		if err := fs.Parse(args); err != nil {
			t.Fatal(err)
		}
		want := "-count must be at most 10000, got " + args[1] + " (every process's result is kept for the report)"
		if err := f.Finish(fs); err == nil || err.Error() != want || len(f.Options.Outputs) != 0 {
			t.Errorf("%v: error %v and %d outputs, want %q and none", args, err, len(f.Options.Outputs), want)
		}
	}
}

// The flags fill the options, and -hlog-interval goes with -hlog.
func TestStreamFlags(t *testing.T) {
	tests := []struct {
		args    []string
		runlog  string
		hlog    string
		wantErr string
	}{
		{args: []string{"-runlog", "r.csv", "-hlog", "r.hlog", "-hlog-interval", "5s"}, runlog: "r.csv", hlog: "r.hlog"},
		{args: []string{"-hlog-interval", "5s"}, wantErr: "-hlog-interval goes with -hlog FILE"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			fs := flag.NewFlagSet("run", flag.ContinueOnError)
			fs.SetOutput(io.Discard)
			var f benchFlags
			f.Register(fs, workload.DefaultConfig())
			if err := fs.Parse(tt.args); err != nil {
				t.Fatal(err)
			}
			err := f.Finish(fs)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Errorf("Finish: %v, want %s", err, tt.wantErr)
				}
				return
			}
			runlog, hlog := bench.File{Path: tt.runlog, Label: "-runlog " + tt.runlog}, bench.File{Path: tt.hlog, Label: "-hlog " + tt.hlog}
			if err != nil || f.Options.RunLog != runlog || f.Options.HistogramLog != hlog || f.Options.HistogramLogInterval.String() != "5s" {
				t.Errorf("Finish: %v; options %+v %+v %v", err, f.Options.RunLog, f.Options.HistogramLog, f.Options.HistogramLogInterval)
			}
		})
	}
}
