package k8s

import (
	"archive/tar"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/loadlens/loadlens/internal/units"
)

// controlClient bounds every call but a fetch, which may carry a large run.db.
var controlClient = &http.Client{Timeout: 30 * time.Second}

func controlRequest(ctx context.Context, method, addr, token, path string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, method, "http://"+addr+path, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	client := controlClient
	if path == "/results.tar" {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("the coordinator: %w", err)
	}
	if resp.StatusCode/100 != 2 {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		resp.Body.Close()
		return nil, fmt.Errorf("the coordinator answered %s: %s", resp.Status, b)
	}
	return resp, nil
}

// GetStatus asks the coordinator at addr for its status.
func GetStatus(ctx context.Context, addr, token string) (Status, error) {
	resp, err := controlRequest(ctx, http.MethodGet, addr, token, "/status")
	if err != nil {
		return Status{}, err
	}
	defer resp.Body.Close()
	var s Status
	err = json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&s)
	return s, err
}

// Release tells the coordinator its results were fetched: it exits now.
func Release(ctx context.Context, addr, token string) error {
	resp, err := controlRequest(ctx, http.MethodPost, addr, token, "/release")
	if err == nil {
		resp.Body.Close()
	}
	return err
}

// Fetch copies the coordinator's results folder into dest, at most max
// bytes: only folders and regular files, and only inside dest.
func Fetch(ctx context.Context, addr, token, dest string, max int64) (files int, size int64, err error) {
	resp, err := controlRequest(ctx, http.MethodGet, addr, token, "/results.tar")
	if err != nil {
		return 0, 0, err
	}
	defer resp.Body.Close()
	tr := tar.NewReader(resp.Body)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return files, size, nil
		}
		if err != nil {
			return files, size, fmt.Errorf("reading the results: %w", err)
		}
		if !filepath.IsLocal(h.Name) {
			return files, size, fmt.Errorf("the results name %q, outside the results folder", h.Name)
		}
		path := filepath.Join(dest, filepath.FromSlash(h.Name))
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(path, 0o755); err != nil {
				return files, size, err
			}
		case tar.TypeReg:
			if size += h.Size; size > max {
				return files, size, fmt.Errorf("the results exceed %s (--max-size)", units.Bytes(max))
			}
			if err := writeFetched(path, tr); err != nil {
				return files, size, err
			}
			files++
		}
	}
}

func writeFetched(path string, r io.Reader) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, r); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
