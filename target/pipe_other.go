//go:build !linux

package target

import (
	"io"
	"os"
)

func newOutPipe() (outPipe, error) { return newFilePipe() }

// filePipe is an os.Pipe, its parent's end read as it comes.
type filePipe struct{ r, w *os.File }

func newFilePipe() (outPipe, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	return &filePipe{r: r, w: w}, nil
}

func (p *filePipe) child() *os.File { return p.w }
func (p *filePipe) close()          { p.r.Close() }

func (p *filePipe) copyTo(w io.Writer, hurry, stop <-chan struct{}) {
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-stop:
			p.r.Close() // ends the copy
		case <-done:
		}
	}()
	io.Copy(w, p.r)
	p.r.Close()
}
