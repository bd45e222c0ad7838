package workload_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gcperf/gcperf/workload"
)

// lookup is an operation of the user's own: it looks keys up in a table that
// Setup builds, responds as soon as it has found the key and counts one
// result, a "hit", per key found. With missEvery > 0, every missEvery-th call
// asks for a key that is not there and fails with a missError.
type lookup struct {
	missEvery int
	table     map[int]string
	calls     int
}

// missError is lookup's failure. Its Category method files it under "miss"
// rather than the generic "error"; as a zero-size value it costs no
// allocation when returned.
type missError struct{}

func (missError) Error() string    { return "key not found" }
func (missError) Category() string { return "miss" }

func (*lookup) Name() string { return "lookup" }
func (*lookup) Unit() string { return "hits" } // what Probe.Results counts

// Setup runs once, before the warmups and outside every timed region.
func (l *lookup) Setup(context.Context) error {
	l.table = make(map[int]string, 1000)
	for k := range 1000 {
		l.table[k] = strconv.Itoa(k)
	}
	return nil
}

func (l *lookup) Run(ctx context.Context, p *workload.Probe) error {
	l.calls++
	key := l.calls % 1000
	if l.missEvery > 0 && l.calls%l.missEvery == 0 {
		key = -1
	}
	v, ok := l.table[key]
	if !ok {
		return missError{}
	}
	p.Respond() // the response time ends here; the runtime at the return
	p.Results(1)
	sinkString = v
	return nil
}

var sinkString string

// The package's first example: a mix of two built-in operations, run with
// a context (cancelling it stops the runs) and the default configuration.
// The counts do not depend on the machine; the timings do.
func Example() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cfg := workload.DefaultConfig() // 5 warmups, 25 runs, 1 outlier at each end, random order
	cfg.Seed = 1                    // the same seed repeats the same orders
	mix := workload.Mix{workload.Spin{D: 50 * time.Microsecond}, workload.Noop{}}
	res, err := workload.Run(ctx, cfg, mix)
	if err != nil {
		fmt.Println(err) // the benchmark could not start, or a Teardown failed
		return
	}
	s := res.Operations[0].Stats
	fmt.Println(res.Operations[0].Name, s.Runs, "runs,", s.Errors, "failed")
	fmt.Println(s.Runtime.Mean >= 50*time.Microsecond, s.Runtime.Percentiles.P99 >= s.Runtime.Mean)
	// Output:
	// spin 25 runs, 0 failed
	// true true
}

// Run a mix of a user's operation and a built-in one, then read what was
// measured. Counts, failures by category and results do not depend on the
// machine; the timings (res.Mix.Stats.Runtime, res.P99, ...) do.
func ExampleRun() {
	cfg := workload.DefaultConfig() // 5 warmups, 25 runs, 1 outlier each end
	cfg.Warmups, cfg.Runs = 2, 10
	cfg.Seed = 42 // the same seed gives the same orders
	mix := workload.Mix{&lookup{missEvery: 5}, workload.Noop{}}

	res, err := workload.Run(context.Background(), cfg, mix)
	if err != nil {
		fmt.Println(err) // invalid configuration, failed Setup or Teardown
		return
	}
	fmt.Println("timed runs:", len(res.Runs), "complete:", res.Complete())
	for _, op := range res.Operations {
		s := op.Stats
		fmt.Printf("%s: %d executions, %d %s, failures %v\n",
			op.Name, s.Runs, s.Results, op.Unit, s.ErrorsByCategory)
	}
	fmt.Println("first miss:", res.Operations[0].FirstError["miss"])

	// The mix: one value per run; a run with a failed operation is counted
	// as failed and left out of the timing statistics.
	m := res.Mix.Stats
	fmt.Printf("mix: %d runs, %d failed, %d timed, %d outliers dropped at each end\n",
		m.Runs, m.Errors, m.Runtime.Count, m.Runtime.Discarded)
	_ = m.Runtime.Percentiles.P99 // and Mean, Max, OpsPerSecond...: timings
	// Output:
	// timed runs: 10 complete: true
	// lookup: 10 executions, 8 hits, failures map[miss:2]
	// noop: 10 executions, 0 results, failures map[]
	// first miss: key not found
	// mix: 10 runs, 2 failed, 8 timed, 1 outliers dropped at each end
}

// The order of the operations in each run is drawn from Config.Seed: the
// same seed repeats it, whatever the number of threads.
func ExampleConfig_seed() {
	var mix workload.Mix
	for _, spec := range []string{"noop", "spin d=0s", "sleep d=0s"} {
		name, arg, _ := strings.Cut(spec, " ")
		args := map[string]string{}
		if k, v, ok := strings.Cut(arg, "="); ok {
			args[k] = v
		}
		op, err := workload.New(name, args)
		if err != nil {
			fmt.Println(err)
			return
		}
		mix = append(mix, op)
	}

	orders := func(threads int) []string {
		cfg := workload.DefaultConfig()
		cfg.Warmups, cfg.Runs, cfg.Threads, cfg.Seed = 0, 4, threads, 7
		res, err := workload.Run(context.Background(), cfg, mix)
		if err != nil {
			panic(err)
		}
		var out []string
		for i := range res.Runs {
			// Executions are grouped by run, in the order they ran.
			var names []string
			for _, x := range res.Executions[i*len(mix) : (i+1)*len(mix)] {
				names = append(names, res.Operations[x.Op].Name)
			}
			out = append(out, strings.Join(names, " "))
		}
		return out
	}
	one := orders(1)
	for i, o := range one {
		fmt.Printf("run %d: %s\n", i+1, o)
	}
	fmt.Println("same with 2 threads:", slices.Equal(one, orders(2)))
	// Output:
	// run 1: spin noop sleep
	// run 2: noop sleep spin
	// run 3: noop sleep spin
	// run 4: spin sleep noop
	// same with 2 threads: true
}

func ExampleConfig_Validate() {
	cfg := workload.DefaultConfig()
	cfg.Runs = 2 // DefaultConfig discards 1 outlier at each end: none would be left
	err := cfg.Validate(1)
	fmt.Println(err)

	var ce *workload.ConfigError
	if errors.As(err, &ce) {
		fmt.Println("setting:", ce.Field)
	}
	fmt.Println("invalid configuration:", errors.Is(err, workload.ErrConfig))

	// Run validates first, and starts nothing when the configuration is bad.
	_, err = workload.Run(context.Background(), cfg, workload.Mix{workload.Noop{}})
	fmt.Println(err)
	// Output:
	// outliers discards the best and worst 1 of 2 runs, leaving none: 2*outliers must be below runs
	// setting: outliers
	// invalid configuration: true
	// workload: outliers discards the best and worst 1 of 2 runs, leaving none: 2*outliers must be below runs
}

// fill is the operation the registry builds in ExampleRegister: it fills a
// buffer of Size bytes, allocated once by Setup.
type fill struct {
	size int
	zero bool
	buf  []byte
}

func (*fill) Name() string { return "example.fill" }
func (f *fill) Describe() string {
	return "size=" + strconv.Itoa(f.size) + " zero=" + strconv.FormatBool(f.zero)
}
func (f *fill) Setup(context.Context) error { f.buf = make([]byte, f.size); return nil }
func (f *fill) Run(_ context.Context, p *workload.Probe) error {
	v := byte(0xff)
	if f.zero {
		v = 0
	}
	for i := range f.buf {
		f.buf[i] = v
	}
	p.Results(int64(len(f.buf)))
	return nil
}
func (*fill) Unit() string { return "bytes" }

// Register an operation by name with typed parameters, so that it can be
// built from text: gcperf's command line and mix files ("example.fill
// size=64") build operations with New. A package usually registers its
// operations in init, with MustRegister.
func ExampleRegister() {
	err := workload.Register(workload.Spec{
		Name: "example.fill",
		Doc:  "fills a buffer of size bytes, allocated once",
		Params: []workload.Param{
			{Name: "size", Kind: workload.Int, Default: "4096", Min: "1", Doc: "bytes in the buffer"},
			{Name: "zero", Kind: workload.Bool, Default: "false", Doc: "fill with zeros instead of 0xff"},
		},
		New: func(p workload.Params) (workload.Operation, error) {
			return &fill{size: int(p.Int("size")), zero: p.Bool("zero")}, nil
		},
	})
	if err != nil {
		fmt.Println(err) // the name is taken, or a default does not parse
		return
	}

	op, err := workload.New("example.fill", map[string]string{"size": "64"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(op.Name(), op.(workload.Describer).Describe())

	cfg := workload.DefaultConfig()
	cfg.Runs, cfg.Seed = 5, 1
	res, err := workload.Run(context.Background(), cfg, workload.Mix{op})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Mix.Stats.Results, res.Unit, "filled in", len(res.Runs), "runs")

	// Parameter errors name the operation, the parameter and the value.
	_, err = workload.New("example.fill", map[string]string{"size": "0"})
	fmt.Println(err)
	fmt.Println("bad parameter:", errors.Is(err, workload.ErrBadParam))
	_, err = workload.New("example.fill", map[string]string{"length": "8"})
	fmt.Println(err)
	_, err = workload.New("example.fil", nil)
	fmt.Println(err)
	// Output:
	// example.fill size=64 zero=false
	// 320 bytes filled in 5 runs
	// example.fill: bad parameter value: size="0": must be at least 1
	// bad parameter: true
	// example.fill: unknown parameter "length" (example.fill takes size, zero)
	// unknown operation "example.fil" (gcperf list shows them)
}

// countRuns is an Observer of the user's: it counts the runs of each phase.
// Its methods run between operations, outside every timed region; with
// Config.Threads > 1 they would be called concurrently.
type countRuns struct {
	ops             []string
	warmups, timed  int
	failedTimedRuns int
}

func (c *countRuns) Begin(b workload.Begin)       { c.ops = b.Operations }
func (c *countRuns) RunStart(workload.Phase, int) {}
func (c *countRuns) RunEnd(ph workload.Phase, _ int, r *workload.RunRecord) {
	if ph == workload.Warmup {
		c.warmups++
		return
	}
	c.timed++
	if r.Errors > 0 {
		c.failedTimedRuns++
	}
}
func (c *countRuns) End(res *workload.Result) {
	fmt.Printf("%v: %d warmup runs, %d timed runs, %d failed\n", c.ops, c.warmups, c.timed, c.failedTimedRuns)
}

// Follow a benchmark as it runs. Verbose is the Observer gcperf -verbose
// uses; this one is the user's own.
func ExampleObserver() {
	cfg := workload.DefaultConfig()
	cfg.Seed = 1
	// A repeated operation is reported under a numbered name.
	mix := workload.Mix{&lookup{missEvery: 10}, workload.Noop{}, workload.Noop{}}
	_, err := workload.Run(context.Background(), cfg, mix, &countRuns{})
	if err != nil {
		fmt.Println(err)
	}
	// Output:
	// [lookup noop noop#2]: 5 warmup runs, 25 timed runs, 3 failed
}

// Verbose prints a line as each timed run starts and ends. Its times vary
// from run to run, so this example has no checked output.
func ExampleVerbose() {
	cfg := workload.DefaultConfig()
	cfg.Warmups, cfg.Runs, cfg.Outliers, cfg.Seed = 0, 2, 0, 1
	start := time.Now()
	_, err := workload.Run(context.Background(), cfg, workload.Mix{workload.Spin{D: time.Millisecond}},
		workload.Verbose(os.Stdout, start))
	if err != nil {
		fmt.Println(err)
	}
	// Prints, for example:
	// [0.001s] Run start 1
	// [0.002s] Run end 1: 1.00ms
	// [0.002s] Run start 2
	// [0.003s] Run end 2: 1.00ms
}
