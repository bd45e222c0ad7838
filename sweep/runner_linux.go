package sweep

import (
	"os/exec"
	"syscall"
)

// detach puts the child in a process group of its own, so that the Ctrl-C
// of a terminal reaches the parent alone (which then kills the child rather
// than let it write an interrupted result), and has the kernel kill the
// child should the parent die.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// kill kills the child's process group: the child and anything it started.
func kill(cmd *exec.Cmd) {
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
		cmd.Process.Kill()
	}
}
