package html

import (
	"bytes"
	"context"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// chromium finds Debian's chromium: /usr/bin/chromium, else chromium on PATH.
func chromium(t *testing.T) string {
	t.Helper()
	if _, err := os.Stat("/usr/bin/chromium"); err == nil {
		return "/usr/bin/chromium"
	}
	if p, err := exec.LookPath("chromium"); err == nil {
		return p
	}
	t.Skip("chromium not found (/usr/bin/chromium or on PATH): the browser test needs Debian's chromium package (apt-get install chromium)")
	return ""
}

// headless runs chromium headless on a page with args, offline-minded: no
// background networking, component updates, sync or QUIC.
func headless(t *testing.T, exe string, args ...string) (stdout, stderr []byte) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--disable-dev-shm-usage", "--user-data-dir=" + t.TempDir()}
	cmd := exec.CommandContext(ctx, exe, append(base, args...)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium %v: %v\n%s", args, err, errb.Bytes())
	}
	return out.Bytes(), errb.Bytes()
}

// TestHTMLBrowser opens a run's page and a sweep's in headless Chromium:
// the DOM holds the charts' <svg> elements, a screenshot is not blank, and
// the parsed DOM refers to nothing outside the page. That the page
// requested nothing outside the file follows from its markup, which
// TestHTML and TestSweepHTML check: no src=, href= or url() but "#..." or
// data:, no script; the browser's own verbose log is no witness, as it
// names Chromium's background requests (update and account services).
func TestHTMLBrowser(t *testing.T) {
	exe := chromium(t)
	d, _ := readFixture(t, "threads.json")
	dir := t.TempDir()
	pages := []struct {
		name string
		page []byte
		svgs int
	}{
		{"run", runHTML(t, d), 3},
		{"sweep", sweepPageOf(t), 4},
	}
	for _, p := range pages {
		t.Run(p.name, func(t *testing.T) {
			path := filepath.Join(dir, p.name+".html")
			if err := os.WriteFile(path, p.page, 0o644); err != nil {
				t.Fatal(err)
			}
			dom, _ := headless(t, exe, "--dump-dom", "file://"+path)
			if n := len(svgOpen.FindAll(dom, -1)); n != p.svgs {
				t.Errorf("the DOM holds %d <svg> elements, want %d", n, p.svgs)
			}
			// The page as the browser parsed it refers to nothing outside it.
			selfContained(t, p.name+" DOM", dom)
			// A wide screen and a narrow one (issue 25: nothing overflows at
			// 1280 px); GCPERF_KEEP_SCREENSHOTS=DIR keeps them to look at.
			for _, width := range []string{"1280", "800"} {
				shot := filepath.Join(t.TempDir(), "shot.png")
				headless(t, exe, "--screenshot="+shot, "--window-size="+width+",2400", "file://"+path)
				if dir := os.Getenv("GCPERF_KEEP_SCREENSHOTS"); dir != "" {
					data, _ := os.ReadFile(shot)
					os.WriteFile(filepath.Join(dir, p.name+"-"+width+".png"), data, 0o644)
				}
				checkNotBlank(t, shot)
			}
		})
	}
}

// checkNotBlank decodes a PNG and checks that its pixels vary: more than
// 2% of them differ from the top-left one, in more than 3 colours.
func checkNotBlank(t *testing.T, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("the screenshot does not decode: %v", err)
	}
	b := img.Bounds()
	bg := img.At(b.Min.X, b.Min.Y)
	colours := map[[4]uint32]bool{}
	differ, total := 0, 0
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			c := img.At(x, y)
			r, g, bl, a := c.RGBA()
			colours[[4]uint32{r, g, bl, a}] = true
			if c != bg {
				differ++
			}
			total++
		}
	}
	if float64(differ) < 0.02*float64(total) || len(colours) <= 3 {
		t.Errorf("the screenshot looks blank: %d of %d pixels differ from the background, %d colours (%v)",
			differ, total, len(colours), b.Size())
	}
}
