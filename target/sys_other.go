//go:build !linux

package target

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
)

// detach does nothing outside Linux: the child shares the parent's process
// group, and a signal reaches the child alone.
func detach(cmd *exec.Cmd) {}

// signalGroup reaches no group outside Linux.
func signalGroup(pgrp int, s syscall.Signal) bool { return false }

// signalPid sends s to one process.
func signalPid(pid int, s syscall.Signal) {
	if p, err := os.FindProcess(pid); err == nil {
		p.Signal(s)
	}
}

// maxRSS is not read outside Linux.
func maxRSS(ps *os.ProcessState) int64 { return 0 }

// setSubreaper fails outside Linux: there is no subreaper.
func setSubreaper() error {
	return fmt.Errorf("target: cannot become a subreaper: %w", errors.ErrUnsupported)
}

// reap does nothing outside Linux, where no orphan is adopted.
func reap(pid int) bool { return true }

// ownGroup is no group outside Linux, where no orphan is adopted.
func ownGroup() int { return -1 }
