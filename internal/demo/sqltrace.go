package demo

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"

	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
)

// The shop's database spans, made by wrapping the database/sql driver as
// otelsql did with the options the shop gave it: a client span per
// statement named by spanName with db.system and db.query.text, its rows
// (sql.rows) a child of it until they are closed, sql.conn.begin_tx,
// sql.tx.commit and sql.tx.rollback; no spans for connecting, preparing,
// pinging or resetting a session. driver.ErrSkip is not recorded as an
// error: it only tells database/sql to take another path.

// openTracedSQL opens a pool of driver's connections to dsn, traced by t.
func openTracedSQL(t *tracer, driverName, dsn, system string) (*sql.DB, error) {
	probe, err := sql.Open(driverName, dsn) // only to find the registered driver; it connects to nothing
	if err != nil {
		return nil, err
	}
	drv := probe.Driver()
	probe.Close()
	var base driver.Connector = dsnConnector{dsn, drv}
	if dc, ok := drv.(driver.DriverContext); ok {
		if base, err = dc.OpenConnector(dsn); err != nil {
			return nil, err
		}
	}
	return sql.OpenDB(tracedConnector{base: base, sq: sqlTracer{t: t, system: strAttr("db.system", system)}}), nil
}

// dsnConnector is a connector for a driver without driver.DriverContext.
type dsnConnector struct {
	dsn string
	drv driver.Driver
}

func (c dsnConnector) Connect(context.Context) (driver.Conn, error) { return c.drv.Open(c.dsn) }
func (c dsnConnector) Driver() driver.Driver                        { return c.drv }

// sqlTracer starts the database spans.
type sqlTracer struct {
	t      *tracer
	system *commonpb.KeyValue
}

// start starts a database span; query, when not "", names it and is its
// db.query.text.
func (q sqlTracer) start(ctx context.Context, method, query string) (context.Context, *span) {
	attrs := []*commonpb.KeyValue{q.system}
	if query != "" {
		attrs = append(attrs, strAttr("db.query.text", query))
	}
	return q.t.start(ctx, spanName(method, query), tracepb.Span_SPAN_KIND_CLIENT, attrs...)
}

// finish records err on s (but not driver.ErrSkip) and ends it.
func finish(s *span, err error) {
	if !errors.Is(err, driver.ErrSkip) {
		s.fail(err)
	}
	s.End()
}

// tracedConnector makes traced connections; Driver is the wrapped one's,
// so the pool still tells which database it talks to.
type tracedConnector struct {
	base driver.Connector
	sq   sqlTracer
}

func (c tracedConnector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.base.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &tracedConn{Conn: conn, sq: c.sq}, nil
}

func (c tracedConnector) Driver() driver.Driver { return c.base.Driver() }
