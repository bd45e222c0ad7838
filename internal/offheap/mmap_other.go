//go:build !unix

package offheap

import "errors"

func mmap(int) ([]byte, error) { return nil, errors.New("no anonymous mappings") }

func munmap([]byte) {}
