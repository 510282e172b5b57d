package demo

import (
	"context"
	"database/sql/driver"
	"errors"
	"io"
)

// tracedConn is a driver connection whose statements and transactions
// make spans; every optional interface is passed on to the wrapped one,
// or answered as database/sql would without it.
type tracedConn struct {
	driver.Conn
	sq sqlTracer
}

func (c *tracedConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	ex, ok := c.Conn.(driver.ExecerContext)
	if !ok {
		return nil, driver.ErrSkip
	}
	ctx, s := c.sq.start(ctx, "sql.conn.exec", query)
	res, err := ex.ExecContext(ctx, query, args)
	finish(s, err)
	return res, err
}

func (c *tracedConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	qr, ok := c.Conn.(driver.QueryerContext)
	if !ok {
		return nil, driver.ErrSkip
	}
	qctx, s := c.sq.start(ctx, "sql.conn.query", query)
	rows, err := qr.QueryContext(qctx, query, args)
	finish(s, err)
	if err != nil {
		return nil, err
	}
	_, rs := c.sq.start(qctx, "sql.rows", "") // a child of the query, as RowsChildOfQuery made it
	return &tracedRows{Rows: rows, s: rs}, nil
}

func (c *tracedConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	if p, ok := c.Conn.(driver.ConnPrepareContext); ok {
		return p.PrepareContext(ctx, query)
	}
	return c.Prepare(query)
}

func (c *tracedConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	bctx, s := c.sq.start(ctx, "sql.conn.begin_tx", "")
	tx, err := c.beginTx(bctx, opts)
	finish(s, err)
	if err != nil {
		return nil, err
	}
	return tracedTx{Tx: tx, ctx: ctx, sq: c.sq}, nil
}

// beginTx begins on the wrapped connection, as database/sql would.
func (c *tracedConn) beginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	if b, ok := c.Conn.(driver.ConnBeginTx); ok {
		return b.BeginTx(ctx, opts)
	}
	if opts.Isolation != 0 || opts.ReadOnly {
		return nil, errors.New("sql: the driver supports neither isolation levels nor read-only transactions")
	}
	//lint:ignore SA1019 the fallback database/sql itself uses for a driver without ConnBeginTx
	return c.Conn.Begin()
}

func (c *tracedConn) Ping(ctx context.Context) error {
	if p, ok := c.Conn.(driver.Pinger); ok {
		return p.Ping(ctx)
	}
	return nil
}

func (c *tracedConn) ResetSession(ctx context.Context) error {
	if r, ok := c.Conn.(driver.SessionResetter); ok {
		return r.ResetSession(ctx)
	}
	return nil
}

func (c *tracedConn) IsValid() bool {
	if v, ok := c.Conn.(driver.Validator); ok {
		return v.IsValid()
	}
	return true
}

func (c *tracedConn) CheckNamedValue(nv *driver.NamedValue) error {
	if ch, ok := c.Conn.(driver.NamedValueChecker); ok {
		return ch.CheckNamedValue(nv)
	}
	return driver.ErrSkip
}

// tracedTx makes a span for the commit or rollback, in the context the
// transaction began in.
type tracedTx struct {
	driver.Tx
	ctx context.Context
	sq  sqlTracer
}

func (t tracedTx) Commit() error {
	_, s := t.sq.start(t.ctx, "sql.tx.commit", "")
	err := t.Tx.Commit()
	finish(s, err)
	return err
}

func (t tracedTx) Rollback() error {
	_, s := t.sq.start(t.ctx, "sql.tx.rollback", "")
	err := t.Tx.Rollback()
	finish(s, err)
	return err
}

// tracedRows ends its sql.rows span when closed.
type tracedRows struct {
	driver.Rows
	s *span
}

func (r *tracedRows) Next(dest []driver.Value) error {
	err := r.Rows.Next(dest)
	if err != nil && !errors.Is(err, io.EOF) {
		r.s.fail(err)
	}
	return err
}

func (r *tracedRows) Close() error {
	err := r.Rows.Close()
	finish(r.s, err)
	return err
}

func (r *tracedRows) HasNextResultSet() bool {
	v, ok := r.Rows.(driver.RowsNextResultSet)
	return ok && v.HasNextResultSet()
}

func (r *tracedRows) NextResultSet() error {
	if v, ok := r.Rows.(driver.RowsNextResultSet); ok {
		return v.NextResultSet()
	}
	return io.EOF
}

func (r *tracedRows) ColumnTypeDatabaseTypeName(i int) string {
	if v, ok := r.Rows.(driver.RowsColumnTypeDatabaseTypeName); ok {
		return v.ColumnTypeDatabaseTypeName(i)
	}
	return ""
}

func (r *tracedRows) ColumnTypeNullable(i int) (nullable, ok bool) {
	if v, ok := r.Rows.(driver.RowsColumnTypeNullable); ok {
		return v.ColumnTypeNullable(i)
	}
	return false, false
}

func (r *tracedRows) ColumnTypeLength(i int) (int64, bool) {
	if v, ok := r.Rows.(driver.RowsColumnTypeLength); ok {
		return v.ColumnTypeLength(i)
	}
	return 0, false
}

func (r *tracedRows) ColumnTypePrecisionScale(i int) (precision, scale int64, ok bool) {
	if v, ok := r.Rows.(driver.RowsColumnTypePrecisionScale); ok {
		return v.ColumnTypePrecisionScale(i)
	}
	return 0, 0, false
}
