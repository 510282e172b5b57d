package demo

import (
	"context"
	"path/filepath"
	"testing"
	"time"
)

// openTestDB opens an empty SQLite shop database in the test's directory.
func openTestDB(t testing.TB) *shopDB {
	t.Helper()
	o, err := Options{SQLitePath: filepath.Join(t.TempDir(), "shop.db")}.withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	db, err := openDB(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.close() })
	return db
}

// wantComments is how many comments seedFeed gives posts first+1..last: id % 3 each.
func wantComments(first, last int64) int64 {
	var n int64
	for id := first + 1; id <= last; id++ {
		n += id % 3
	}
	return n
}

func TestSeedAppendsPostsAndComments(t *testing.T) {
	db := openTestDB(t)
	ctx := context.Background()
	cases := []struct {
		name              string
		rows              int
		wantPosts         int64
		wantCommentsAfter int64
	}{
		{"into an empty database", 1000, 1000, wantComments(0, 1000)},
		{"appended to what is there", 500, 1500, wantComments(0, 1500)},
		{"nothing", 0, 1500, wantComments(0, 1500)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if err := Seed(ctx, db.DB, c.rows); err != nil {
				t.Fatal(err)
			}
			posts, _ := count(ctx, db, "demo_posts")
			comments, _ := count(ctx, db, "demo_comments")
			if posts != c.wantPosts || comments != c.wantCommentsAfter {
				t.Fatalf("%d posts, %d comments; want %d and %d", posts, comments, c.wantPosts, c.wantCommentsAfter)
			}
		})
	}
	t.Run("negative rows", func(t *testing.T) {
		if err := Seed(ctx, db.DB, -1); err == nil {
			t.Fatal("seeding -1 rows succeeded; want an error")
		}
	})
}

// TestSeed200kRowsQuickly guards against seeding one row at a time, which
// takes minutes at this size; the bound is generous for a loaded machine.
func TestSeed200kRowsQuickly(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("seeds 200,000 rows; timing means nothing under -short or -race")
	}
	db := openTestDB(t)
	start := time.Now()
	if err := Seed(context.Background(), db.DB, 200_000); err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	posts, _ := count(context.Background(), db, "demo_posts")
	if posts != 200_000 || took > 20*time.Second {
		t.Fatalf("%d posts in %v; want 200,000 in seconds", posts, took)
	}
	t.Logf("seeded 200,000 posts and their comments in %v", took)
}

func TestSeedToNeedsANamedDatabase(t *testing.T) {
	cases := []struct {
		name    string
		o       Options
		wantErr bool
	}{
		{"no database named", Options{}, true},
		{"an SQLite file", Options{SQLitePath: filepath.Join(t.TempDir(), "seeded.db")}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := SeedTo(context.Background(), c.o, 100)
			if (err != nil) != c.wantErr {
				t.Fatalf("error %v; want an error: %v", err, c.wantErr)
			}
		})
	}
}

func BenchmarkSeed200k(b *testing.B) {
	for b.Loop() {
		b.StopTimer()
		db := openTestDB(b)
		b.StartTimer()
		if err := Seed(context.Background(), db.DB, 200_000); err != nil {
			b.Fatal(err)
		}
	}
}
