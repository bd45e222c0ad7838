// Package layering holds no code: its test checks that the import graph
// keeps the rules of the design (docs and DESIGN's package table), as
// `go list -deps` sees them, so that a change that breaks one fails a test
// rather than a review.
package layering
