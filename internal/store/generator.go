package store

import (
	"fmt"
)

// GeneratorSecond is what the load generator itself used during one second.
type GeneratorSecond struct {
	Sec int
	CPU float64 // cores busy: user + system CPU time over wall time
}

// generatorSchema was added to SchemaVersion 1 without a version bump:
// older loadlens builds ignore the table, and files written before it
// existed read as having no generator figures.
const generatorSchema = `
CREATE TABLE IF NOT EXISTS generator_seconds (
	sec       INTEGER PRIMARY KEY,
	cpu_cores REAL NOT NULL
);
`

// WriteGenerator stores the generator's own figures of one second.
func (w *Writer) WriteGenerator(g GeneratorSecond) error {
	if _, err := w.db.Exec(`INSERT INTO generator_seconds (sec, cpu_cores) VALUES (?, ?)`, g.Sec, g.CPU); err != nil {
		return fmt.Errorf("run.db %s: write generator second %d: %w", w.path, g.Sec, err)
	}
	return nil
}

// Generator returns the generator's figures by second, in order; a run.db
// written before they were recorded has none.
func (r *Reader) Generator() ([]GeneratorSecond, error) {
	var n int
	if err := r.db.QueryRow(`SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'generator_seconds'`).Scan(&n); err != nil {
		return nil, fmt.Errorf("run.db %s: %w", r.path, err)
	}
	if n == 0 {
		return nil, nil
	}
	rows, err := r.db.Query(`SELECT sec, cpu_cores FROM generator_seconds ORDER BY sec`)
	if err != nil {
		return nil, fmt.Errorf("run.db %s: read generator seconds: %w", r.path, err)
	}
	defer func() { _ = rows.Close() }()
	var out []GeneratorSecond
	for rows.Next() {
		var g GeneratorSecond
		if err := rows.Scan(&g.Sec, &g.CPU); err != nil {
			return nil, fmt.Errorf("run.db %s: read generator seconds: %w", r.path, err)
		}
		out = append(out, g)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("run.db %s: read generator seconds: %w", r.path, err)
	}
	return out, nil
}
