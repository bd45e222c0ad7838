// Package env describes where a benchmark ran: the Go runtime's settings as
// the runtime itself reports them, and the memory the machine (or its
// container) can give. Readers take a root directory, as prometheus/procfs
// does, so tests read fixtures under testdata/ and never the live machine.
package env
