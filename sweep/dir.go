package sweep

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gcperf/gcperf/env"
	"github.com/gcperf/gcperf/internal/quote"
	"github.com/gcperf/gcperf/internal/safefile"
	"github.com/gcperf/gcperf/internal/setting"
)

// The files a sweep writes in its directory besides SummaryFile, PlanFile
// and the points' results and logs.
const (
	CSVFile   = "sweep.csv"
	BenchFile = "bench.txt"
	PageFile  = "sweep.html"
)

// Files are the names of every file a sweep of points, count repeats
// each, may write in its directory: its summaries, and each repeat's
// result, failed result (FailedName) and log.
func Files(points []Point, count int) []string {
	files := []string{SummaryFile, PlanFile, CSVFile, BenchFile, PageFile}
	for _, pt := range points {
		for rep := 1; rep <= count; rep++ {
			name := pt.FileName(rep)
			files = append(files, name, FailedName(name), logName(pt, rep))
		}
	}
	return files
}

// ErrNotEmpty is wrapped by PrepareDir's error for a directory that holds
// files when it may not.
var ErrNotEmpty = errors.New("not empty")

// PrepareDir makes dir ready for a sweep: a new temporary directory when
// dir is "", else dir, created when missing; a directory that exists must
// be empty unless keep (a resumed or overwritten sweep). Its errors do not
// name dir.
func PrepareDir(dir string, keep bool) (string, error) {
	if dir == "" {
		d, err := os.MkdirTemp("", "gcperf-sweep-")
		if err != nil {
			return "", fmt.Errorf("sweep: cannot create a directory for the results: %w", err)
		}
		return d, nil
	}
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return "", safefile.Cause(err)
	case !st.IsDir():
		return "", errors.New("not a directory")
	case !keep:
		entries, err := os.ReadDir(dir)
		if err != nil {
			return "", safefile.Cause(err)
		}
		if len(entries) > 0 {
			return "", ErrNotEmpty
		}
	}
	if err := safefile.MakeDir(dir); err != nil {
		return "", err
	}
	return dir, nil
}

// WriteDir writes s's own files into dir, each whole or not at all:
// SummaryFile, CSVFile, BenchFile and, when page is not nil, PageFile drawn
// by page. It returns the names of the files it wrote and every error, each
// naming its file, so that a full disk is reported file by file and a
// caller lists only what exists.
func WriteDir(dir string, s *Summary, page func(io.Writer, *Summary) error) ([]string, error) {
	files := []struct {
		name  string
		write func(io.Writer) error
	}{
		{SummaryFile, func(w io.Writer) error { return WriteJSON(w, s) }},
		{CSVFile, func(w io.Writer) error { return CSV(w, s.Rows) }},
		{BenchFile, func(w io.Writer) error { return Bench(w, s.Outcomes) }},
		{PageFile, func(w io.Writer) error { return page(w, s) }},
	}
	if page == nil {
		files = files[:3]
	}
	var written []string
	var errs []error
	for _, f := range files {
		if err := safefile.Write(filepath.Join(dir, f.name), nil, true, f.write); err != nil {
			errs = append(errs, err)
			continue
		}
		written = append(written, f.name)
	}
	return written, errors.Join(errs...)
}

// CopyResults copies the result of each of s's outcomes (File, an absolute
// path as Merge leaves it) into dir and names it there, so that a merged
// summary written to dir is a sweep like any other. A failed outcome whose
// result cannot be read loses its File rather than failing the copy.
func CopyResults(s *Summary, dir string) error {
	copied := map[string]bool{}
	for i := range s.Outcomes {
		o := &s.Outcomes[i]
		if o.File == "" {
			continue
		}
		data, err := safefile.Read(o.File, safefile.ResultLimit)
		if err != nil && !o.Failed.IsZero() {
			o.File = ""
			continue
		}
		if err != nil {
			return err
		}
		name := filepath.Base(o.File)
		if copied[name] {
			return fmt.Errorf("sweep: two results named %s: the merge would keep one", quote.Clip(name))
		}
		copied[name] = true
		if err := safefile.Write(filepath.Join(dir, name), nil, true, func(w io.Writer) error {
			_, err := w.Write(data)
			return err
		}); err != nil {
			return err
		}
		o.File = name
	}
	return nil
}

// ChildEnv is environ without the settings the points set: GOGC and
// GOMEMLIMIT, and GOMAXPROCS when it is an axis of the grid (else the
// children inherit it).
func ChildEnv(environ []string, g Grid) []string {
	var out []string
	for _, kv := range environ {
		k, _, _ := strings.Cut(kv, "=")
		if k == "GOGC" || k == "GOMEMLIMIT" || len(g.GOMAXPROCS) > 0 && k == "GOMAXPROCS" {
			continue
		}
		out = append(out, kv)
	}
	return out
}

// ParseMemCap reads a per-point memory cap: a size in Go's syntax (4GiB),
// a percentage of the memory available (cgroup included, read from procfs
// under root), or off. It returns the cap in bytes (0: none) and a note
// saying how it was chosen, for the sweep's first line.
func ParseMemCap(s, root string) (int64, string, error) {
	if strings.EqualFold(s, "off") {
		return 0, "no memory cap", nil
	}
	if num, ok := strings.CutSuffix(s, "%"); ok {
		pct, err := strconv.ParseFloat(num, 64)
		if err != nil || !(pct > 0 && pct <= 100) {
			return 0, "", badFlag("MemCap", "%q is not a percentage above 0 and at most 100", quote.Clip(s))
		}
		mem, err := env.ReadMemory(context.Background(), root)
		if err != nil {
			return 0, "no memory cap: the memory available is unknown here (-point-memory SIZE sets one)", nil
		}
		where := ""
		if mem.Limit == "cgroup" {
			where = " under this cgroup"
		}
		c := int64(float64(mem.Available) * pct / 100)
		return c, fmt.Sprintf("memory cap %s per point (%s of the %s available%s)", env.Bytes(c), s, env.Bytes(mem.Available), where), nil
	}
	n, ok := setting.MemLimitBytes(s)
	if !ok || n <= 0 {
		return 0, "", badFlag("MemCap", "%q is not a size such as 4GiB, a percentage of the available memory such as 80%%, or off", quote.Clip(s))
	}
	return n, "memory cap " + env.Bytes(n) + " per point", nil
}

// Complete reports whether s holds an outcome, failed or not, for every
// point and repeat of its grid: advice over part of a grid could name a
// setting that a missing point beats.
func (s *Summary) Complete() bool {
	return len(s.Outcomes) >= len(s.Grid.Points())*s.Count
}
