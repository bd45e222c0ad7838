// Package report turns a measured workload.Result into the documents users
// read. It formats what package latency computed and never computes
// statistics of its own.
//
// Every format renders one Document, built from a Result by New, so that a
// saved JSON document (ReadJSON) renders exactly as the live result did:
//
//	doc := report.New(res, report.Meta{Version: "0.1.0", Go: env.ReadGo()})
//	err := report.Text(os.Stdout, doc)
//	err = report.JSON(f, doc)
package report
