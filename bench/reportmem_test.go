package bench

import (
	"context"
	"io"
	"runtime"
	"testing"

	"github.com/gcperf/gcperf/report"
	"github.com/gcperf/gcperf/workload"
)

// BenchmarkReportMemory measures, per kept run, what the document holds
// (doc-B/run: report.New's heap, live after a collection) and what each
// format's writer allocates (FORMAT-alloc-B/run), for runs of one and
// four noops, with and without the collector's figures per run. The
// formats' RunMemory figures (formats.go) come from the peak RSS of the
// gcperf binary, which these explain: the document and the writers'
// garbage beside the records.
//
//	go test ./bench -run - -bench ReportMemory -benchtime 1x
func BenchmarkReportMemory(b *testing.B) {
	const n = 200_000
	for _, ops := range []int{1, 4} {
		for _, gc := range []workload.GCStats{workload.GCStatsTotal, workload.GCStatsRun} {
			b.Run("ops="+string(rune('0'+ops))+"/gcstats="+gc.String(), func(b *testing.B) {
				for range b.N {
					doc, formats := measureReport(b, n, ops, gc)
					b.ReportMetric(doc, "doc-B/run")
					for name, v := range formats {
						b.ReportMetric(v, name+"-alloc-B/run")
					}
				}
			})
		}
	}
}

// measureReport runs n runs of ops noops, keeping every run's records, and
// returns the bytes per kept run that the document holds (report.New) and
// that each format allocates while writing it.
func measureReport(b *testing.B, n, ops int, gc workload.GCStats) (doc float64, formats map[string]float64) {
	b.StopTimer()
	cfg := workload.DefaultConfig()
	cfg.Warmups, cfg.Runs, cfg.Outliers, cfg.KeepRuns, cfg.GCStats, cfg.Seed = 0, n, 0, n, gc, 1
	var mix workload.Mix
	for range ops {
		mix = append(mix, workload.Noop{})
	}
	res, err := workload.Run(context.Background(), cfg, mix)
	if err != nil {
		b.Fatal(err)
	}
	b.StartTimer()
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	d := report.New(res, report.Meta{})
	runtime.GC()
	runtime.ReadMemStats(&m1)
	doc = float64(int64(m1.HeapAlloc)-int64(m0.HeapAlloc)) / float64(n)
	formats = map[string]float64{}
	for _, f := range Formats {
		runtime.GC()
		runtime.ReadMemStats(&m0)
		if err := f.Write(io.Discard, d); err != nil {
			b.Fatal(err)
		}
		runtime.ReadMemStats(&m1)
		formats[f.Name] = float64(m1.TotalAlloc-m0.TotalAlloc) / float64(n)
	}
	runtime.KeepAlive(d)
	runtime.KeepAlive(res)
	return doc, formats
}
