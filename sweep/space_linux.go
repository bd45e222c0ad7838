package sweep

import "syscall"

// freeBytes is what the file system of dir has free for an unprivileged
// writer (statfs(2)'s f_bavail); ok is false where it cannot say.
func freeBytes(dir string) (free int64, ok bool) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return 0, false
	}
	return int64(st.Bavail) * st.Bsize, true
}

// errNoSpace is the error of a directory with less free space than asked.
var errNoSpace error = syscall.ENOSPC
