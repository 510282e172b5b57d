// Command gofixture prints the exposition of a Go service that registers
// client_golang's Go, process and DBStats collectors, as typical Go services
// do; it wrote ../go.prom. It is not part of the loadlens module (testdata
// is ignored by the go tool): to rerun it, copy it into a scratch module that
// requires github.com/prometheus/client_golang v1.23.2 and modernc.org/sqlite,
// then `go run . > go.prom` and put the provenance comment back on top.
package main

import (
	"database/sql"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	_ "modernc.org/sqlite"
)

func main() {
	db, err := sql.Open("sqlite", "file::memory:?cache=shared")
	if err != nil {
		panic(err)
	}
	db.SetMaxOpenConns(2)
	var wg sync.WaitGroup
	for i := 0; i < 6; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tx, err := db.Begin()
			if err != nil {
				panic(err)
			}
			time.Sleep(20 * time.Millisecond)
			tx.Rollback()
		}()
	}
	wg.Wait()
	var sink []byte
	for i := 0; i < 200000; i++ {
		sink = make([]byte, 1024)
		_ = sink
	}
	runtime.GC()
	runtime.GC()
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}), collectors.NewDBStatsCollector(db, "shop"))
	srv := httptest.NewServer(promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	defer srv.Close()
	req, _ := http.NewRequest("GET", srv.URL, nil)
	req.Header.Set("Accept", "text/plain;version=0.0.4")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		panic(err)
	}
	io.Copy(os.Stdout, resp.Body)
}
