package benchout_test

import (
	"math/rand/v2"
	"os"
	"strings"
	"testing"
)

// TestGolden reads every fixture (testdata/*.txt) and compares what the
// Collector read with the .golden file beside it.
func TestGolden(t *testing.T) {
	for file, in := range fixtures(t) {
		t.Run(strings.TrimSuffix(strings.TrimPrefix(file, "testdata/"), ".txt"), func(t *testing.T) {
			got := collect(t, in, nil)
			golden := strings.TrimSuffix(file, ".txt") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (go test -update writes it)", err)
			}
			if got != string(want) {
				t.Errorf("%s differs from %s (go test -update rewrites it):\n%s", file, golden, lineDiff(string(want), got))
			}
		})
	}
}

// TestChunks writes every fixture in pieces: however the stream is split
// between Writes, the Collector reads the same.
func TestChunks(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	splits := []struct {
		name  string
		split func([]byte) [][]byte
	}{
		{"bytes", func(b []byte) [][]byte {
			var out [][]byte
			for i := range b {
				out = append(out, b[i:i+1])
			}
			return out
		}},
		{"random", func(b []byte) [][]byte {
			var out [][]byte
			for len(b) > 0 {
				n := min(len(b), r.IntN(40))
				out = append(out, b[:n]) // empty Writes too
				b = b[n:]
			}
			return out
		}},
		{"lines", func(b []byte) [][]byte {
			return splitAfterLines(b)
		}},
		{"halves", func(b []byte) [][]byte {
			return [][]byte{b[:len(b)/2], b[len(b)/2:]}
		}},
	}
	for file, in := range fixtures(t) {
		want := collect(t, in, nil)
		for _, s := range splits {
			t.Run(strings.TrimPrefix(file, "testdata/")+"/"+s.name, func(t *testing.T) {
				if got := collect(t, in, s.split); got != want {
					t.Errorf("written in pieces, %s reads otherwise:\n%s", file, lineDiff(want, got))
				}
			})
		}
	}
}

// splitAfterLines splits b after each newline.
func splitAfterLines(b []byte) [][]byte {
	var out [][]byte
	for len(b) > 0 {
		i := strings.IndexByte(string(b), '\n')
		if i < 0 {
			i = len(b) - 1
		}
		out = append(out, b[:i+1])
		b = b[i+1:]
	}
	return out
}
