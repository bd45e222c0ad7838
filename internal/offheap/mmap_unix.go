//go:build unix

package offheap

import "syscall"

func mmap(size int) ([]byte, error) {
	return syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
}

func munmap(b []byte) { _ = syscall.Munmap(b) }
