package historystore

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/history"
)

// Two runs ending at once each open the index and record themselves: the
// SQLite lock serialises them and neither write is lost.
func TestIndexTwoWritersAtOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), IndexFile)
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan error, 200)
	for w := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 30 {
				ix, err := OpenIndex(path)
				if err != nil {
					errs <- err
					return
				}
				name := fmt.Sprintf("run-%d-%02d", w, i)
				errs <- ix.Put(ctx, Entry{Dir: name, Stamp: Stamp{Size: int64(i), ModNano: 1}, Run: history.Run{ID: name, Start: time.Unix(int64(i), 0).UTC()}})
				errs <- ix.Close()
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	ix, err := OpenIndex(path)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	es, err := ix.Entries(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(es) != 60 {
		t.Fatalf("%d entries, want 60", len(es))
	}
}

// An index of another layout is emptied, not misread: the run directories
// hold everything it held.
func TestIndexOfAnotherVersionIsEmptied(t *testing.T) {
	path := filepath.Join(t.TempDir(), IndexFile)
	ctx := context.Background()
	ix, err := OpenIndex(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := ix.Put(ctx, Entry{Dir: "a", Run: history.Run{ID: "a"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := ix.db.Exec(`UPDATE meta SET value = '0' WHERE key = 'version'`); err != nil {
		t.Fatal(err)
	}
	ix.Close()
	if ix, err = OpenIndex(path); err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if es, err := ix.Entries(ctx); err != nil || len(es) != 0 {
		t.Errorf("entries %v (err %v), want none", es, err)
	}
}
