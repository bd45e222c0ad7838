//go:build unix

package safefile

import "syscall"

const (
	nonblock = syscall.O_NONBLOCK
	nofollow = syscall.O_NOFOLLOW
)
