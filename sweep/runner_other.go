//go:build !linux

package sweep

import "os/exec"

// detach does nothing outside Linux: the child shares the parent's process
// group and receives a terminal's Ctrl-C too.
func detach(cmd *exec.Cmd) {}

// kill kills the child.
func kill(cmd *exec.Cmd) { cmd.Process.Kill() }
