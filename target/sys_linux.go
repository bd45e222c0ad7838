package target

import (
	"errors"
	"fmt"
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

// prSetChildSubreaper is prctl(2)'s PR_SET_CHILD_SUBREAPER.
const prSetChildSubreaper = 36

// setSubreaper makes this process a child subreaper.
func setSubreaper() error {
	if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0); errno != 0 {
		return fmt.Errorf("target: cannot become a subreaper: prctl: %w", errno)
	}
	return nil
}

// reap waits for the child pid if it has ended (a zombie), without
// blocking: it reports whether pid is no longer a child to wait for.
func reap(pid int) bool {
	var ws syscall.WaitStatus
	got, err := syscall.Wait4(pid, &ws, syscall.WNOHANG, nil)
	return got == pid || errors.Is(err, syscall.ECHILD)
}

// ownGroup is this process's own process group.
func ownGroup() int { return syscall.Getpgrp() }
