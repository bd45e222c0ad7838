package report_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/gcperf/gcperf/env"
	"github.com/gcperf/gcperf/report"
	"github.com/gcperf/gcperf/workload"
)

// Measure, build the Document, and write it as JSON. Every format (Text,
// JSON, CSV, XML, HGRM, Bench) renders the same Document.
func ExampleNew() {
	cfg := workload.DefaultConfig()
	cfg.Warmups, cfg.Runs, cfg.Seed = 1, 10, 7
	res, err := workload.Run(context.Background(), cfg, workload.Mix{workload.Spin{D: 10 * time.Microsecond}})
	if err != nil {
		fmt.Println(err)
		return
	}
	// Meta is what the Result does not know: gcperf's version, the command
	// line, the environment (env.Capture describes the whole machine).
	doc := report.New(res, report.Meta{Version: "example", Env: env.Env{Go: env.ReadGo()}})

	var buf bytes.Buffer
	if err := report.JSON(&buf, doc); err != nil {
		fmt.Println(err)
		return
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(buf.Bytes(), &top); err != nil {
		fmt.Println(err)
		return
	}
	keys := slices.Sorted(maps.Keys(top))
	fmt.Println("schema:", string(top["schema"]))
	fmt.Println("keys:", strings.Join(keys, " "))

	// A saved document reads back as the Document it was written from.
	back, err := report.ReadJSON(&buf)
	if err != nil {
		fmt.Println(err)
		return
	}
	op := back.Operations[0]
	fmt.Printf("%s %s: %d runs of %d, seed %d\n", op.Name, op.Params, op.Runs, back.Config.Runs, back.Config.Seed)
	// Output:
	// schema: "gcperf/v2"
	// keys: config env gc gcperfp99 harness hiccup interrupted mix open_loop operations process profiling runs schema tail timing tool
	// spin d=10µs: 10 runs of 10, seed 7
}

// Read a saved result, here one of gcperf's own test fixtures, written by
// gcperf -size 8 -runs 200 -seed 3 -json list.json.
func ExampleReadJSON() {
	f, err := os.Open("testdata/list.json")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer f.Close()
	doc, err := report.ReadJSON(f)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("runs:", doc.Config.Runs, "seed:", doc.Config.Seed, "gcstats:", doc.Config.GCStats)
	for _, op := range doc.Operations {
		fmt.Printf("%s %s: %d runs, %d %s\n", op.Name, op.Params, op.Runs, op.Results, op.Unit)
	}
	fmt.Println("GCPerfP99 keeps", doc.GCPerfP99.Kept, "of", doc.GCPerfP99.Runs, "runs")

	// ReadJSON refuses what is not a gcperf result, and schemas it does not know.
	_, err = report.ReadJSON(strings.NewReader(`{"schema": "gcperf/v0"}`))
	fmt.Println(err)
	fmt.Println("unsupported schema:", errors.Is(err, report.ErrSchema))
	_, err = report.ReadJSON(strings.NewReader(`{"runs": []}`))
	fmt.Println("not a result:", errors.Is(err, report.ErrNotResult))
	// Output:
	// runs: 200 seed: 3 gcstats: run
	// alloc.list size=8 base=32 chunk=32: 200 runs, 6400 objects
	// GCPerfP99 keeps 198 of 200 runs
	// unsupported schema "gcperf/v0": this gcperf reads "gcperf/v2"
	// unsupported schema: true
	// not a result: true
}

// A document's kind says which of its sections hold the figures: a
// command's run (gcperf exec) has its Exec section and no operations. A
// result written under gcperf/v1 (exec.json) reads converted to the
// current schema.
func ExampleDocument_Kind() {
	for _, name := range []string{"testdata/list.json", "testdata/exec.json"} {
		doc, err := report.ReadFile(name)
		if err != nil {
			fmt.Println(err)
			return
		}
		switch doc.Kind() {
		case report.CommandDocument:
			fmt.Println(doc.Kind(), doc.Schema, doc.Exec.Command[0], doc.Exec.Status)
		default:
			fmt.Println(doc.Kind(), doc.Schema, len(doc.Operations), "operation")
		}
	}
	// Output:
	// benchmark gcperf/v2 1 operation
	// command gcperf/v2 ./alloc.test exit status 0
}

// Text is the report gcperf prints. Its figures are timings, so this example
// has no checked output.
func ExampleText() {
	cfg := workload.DefaultConfig()
	cfg.Seed = 1
	res, err := workload.Run(context.Background(), cfg, workload.Mix{workload.Spin{D: 50 * time.Microsecond}})
	if err != nil {
		fmt.Println(err)
		return
	}
	e, err := env.Capture(context.Background(), "/") // the machine, as the report's header shows it
	if err != nil {
		fmt.Println("warning:", err)
	}
	if err := report.Text(os.Stdout, report.New(res, report.Meta{Version: "example", Env: e})); err != nil {
		fmt.Println(err)
	}
}

// The text report: its first screen by default; TextOptions.Verbose adds
// the statistics table, the collector's paragraph, GCPerfP99's worst runs
// and the explanations below it.
func ExampleWriteText() {
	doc, err := report.ReadFile("testdata/list.json")
	if err != nil {
		fmt.Println(err)
		return
	}
	var short, full bytes.Buffer
	if err := report.WriteText(&short, doc, report.TextOptions{}); err != nil {
		fmt.Println(err)
		return
	}
	if err := report.WriteText(&full, doc, report.TextOptions{Verbose: true}); err != nil {
		fmt.Println(err)
		return
	}
	lines := strings.Split(short.String(), "\n")
	for _, l := range lines[3:6] {
		fmt.Println(strings.Join(strings.Fields(l), " "))
	}
	fmt.Println("default:", strings.Count(short.String(), "\n"), "lines; verbose:", strings.Count(full.String(), "\n"), "lines")
	fmt.Println("verbose begins with the default's first screen:", strings.HasPrefix(full.String(), strings.Join(lines[:9], "\n")))
	// Output:
	// Runtime runs P50 P90 P99 P99.9 max
	// alloc.list 200 167µs 783µs 1.81ms 3.09ms 3.09ms
	// P99.9 of 200 runs is the max: too few runs to differ from it (a P99.9 needs 1000 runs).
	// default: 11 lines; verbose: 60 lines
	// verbose begins with the default's first screen: true
}
