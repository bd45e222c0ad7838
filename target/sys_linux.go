package target

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
)

// detach starts the child in a process group of its own, so that a signal
// to the group reaches its descendants too and a terminal's Ctrl-C reaches
// the parent alone (which forwards it), and has the kernel kill the child
// should the parent die (Pdeathsig: when the thread that started it ends;
// Go ends a thread only when a goroutine locked to it exits).
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// signalGroup sends s to process group pgrp; it reports whether the group
// had a process (a zombie counts).
func signalGroup(pgrp int, s syscall.Signal) bool {
	return !errors.Is(syscall.Kill(-pgrp, s), syscall.ESRCH)
}

// signalPid sends s to one process.
func signalPid(pid int, s syscall.Signal) {
	syscall.Kill(pid, s)
}

// maxRSS is the kernel's ru_maxrss of a waited-for child, in bytes (Linux
// counts it in KiB).
func maxRSS(ps *os.ProcessState) int64 {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss << 10
	}
	return 0
}
