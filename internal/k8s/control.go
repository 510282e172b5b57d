package k8s

import (
	"archive/tar"
	"crypto/subtle"
	"encoding/json"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// Control is the coordinator pod's own small HTTP server, which the CLI
// reaches through a port-forward to its pod: the status, and the run
// directory as a tar for `k8s fetch`. Every request carries the run's
// token (the agents' token, which only who can read the run's Secret has).
type Control struct {
	token    string
	status   func() Status
	dir      string
	released chan struct{}
	once     sync.Once
}

// NewControl serves the status, and the run directory (status().RunDir
// in dir, the results folder), to whoever has token.
func NewControl(token string, status func() Status, dir string) *Control {
	return &Control{token: token, status: status, dir: dir, released: make(chan struct{})}
}

// Released is closed when a fetch asked the coordinator to stop serving
// its results (`k8s fetch` once it has them): it need not wait for --keep.
func (c *Control) Released() <-chan struct{} { return c.released }

// Handler is the server's routes, behind the token.
func (c *Control) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /status", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(c.status())
	})
	mux.HandleFunc("GET /results.tar", func(w http.ResponseWriter, _ *http.Request) {
		run := c.status().RunDir
		if run == "" || !filepath.IsLocal(run) {
			http.Error(w, "the run directory is not written yet", http.StatusConflict)
			return
		}
		w.Header().Set("Content-Type", "application/x-tar")
		_ = writeTar(w, c.dir, run) // a broken stream shows at the client as a short tar
	})
	mux.HandleFunc("POST /release", func(w http.ResponseWriter, _ *http.Request) {
		c.once.Do(func() { close(c.released) })
		w.WriteHeader(http.StatusNoContent)
	})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if !ok || subtle.ConstantTimeCompare([]byte(got), []byte(c.token)) != 1 {
			http.Error(w, "a run's token is required (Authorization: Bearer)", http.StatusUnauthorized)
			return
		}
		mux.ServeHTTP(w, r)
	})
}

// writeTar writes the folder sub of dir and the regular files and folders
// under it, by their paths relative to dir: only this run's directory,
// though a claim holds others.
func writeTar(w io.Writer, dir, sub string) error {
	tw := tar.NewWriter(w)
	err := filepath.WalkDir(filepath.Join(dir, sub), func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if !info.Mode().IsRegular() && !info.IsDir() {
			return nil
		}
		h, err := tar.FileInfoHeader(info, "")
		if err != nil {
			return err
		}
		h.Name, h.Uid, h.Gid, h.Uname, h.Gname = filepath.ToSlash(rel), 0, 0, "", ""
		if info.IsDir() {
			h.Name += "/"
		}
		if err := tw.WriteHeader(h); err != nil || info.IsDir() {
			return err
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		_, err = io.CopyN(tw, f, h.Size) // the size the header promised, though the file grows
		return err
	})
	if err != nil {
		return err
	}
	return tw.Close()
}
