package demo

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
)

// productQuery reads a product page: the product and its review summary.
const productQuery = `SELECT p.id, p.name, p.price, p.stock, p.description, COUNT(r.id), COALESCE(CAST(AVG(r.rating) AS DOUBLE PRECISION), 0)
	FROM demo_products p LEFT JOIN demo_product_reviews r ON r.product_id = p.id
	WHERE p.id = $1 GROUP BY p.id, p.name, p.price, p.stock, p.description`

type productPage struct {
	ID          int64   `json:"id"`
	Name        string  `json:"name"`
	Price       int64   `json:"price"`
	Stock       int64   `json:"stock"`
	Description string  `json:"description"`
	Reviews     int64   `json:"reviews"`
	Rating      float64 `json:"rating"`
}

// errNoProduct is a product id the catalogue does not have.
var errNoProduct = errors.New("no such product")

// product returns one product (case study 2). Naive: the database on every
// request. Improved: look-aside cache first, the database on a miss.
func (s *shop) product(w http.ResponseWriter, r *http.Request) int {
	v, status, ok := s.variant(w, r)
	if !ok {
		return status
	}
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id < 1 {
		return writeJSON(w, http.StatusNotFound, map[string]any{"error": "no such product: want a positive integer id"})
	}
	if !v.improved() {
		body, err := s.loadProduct(r.Context(), id)
		return s.writeProduct(w, body, err)
	}
	var kb [32]byte // one allocation for the key, sized so appending never grows it
	key := strconv.AppendInt(append(kb[:0], "product:"...), id, 10)
	if body, hit, err := s.cache.get(r.Context(), key); err == nil && hit {
		s.counts.cacheHits[productCache].Add(1)
		return writeRaw(w, http.StatusOK, body)
	}
	s.counts.cacheMisses[productCache].Add(1)
	body, err := s.loadProduct(r.Context(), id)
	if err == nil {
		if err := s.cache.set(r.Context(), key, body); err != nil {
			s.opt.Logf("demo: caching product %d: %v", id, err)
		}
	}
	return s.writeProduct(w, body, err)
}

func (s *shop) writeProduct(w http.ResponseWriter, body []byte, err error) int {
	switch {
	case errors.Is(err, errNoProduct):
		return writeJSON(w, http.StatusNotFound, map[string]any{"error": err.Error()})
	case err != nil:
		return s.errorStatus(w, err)
	}
	return writeRaw(w, http.StatusOK, body)
}

// loadProduct reads a product from the database as its JSON body.
func (s *shop) loadProduct(ctx context.Context, id int64) ([]byte, error) {
	c, err := s.db.conn(ctx)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	var p productPage
	err = c.QueryRowContext(ctx, productQuery, id).Scan(&p.ID, &p.Name, &p.Price, &p.Stock, &p.Description, &p.Reviews, &p.Rating)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errNoProduct
	}
	if err != nil {
		return nil, err
	}
	return json.Marshal(p)
}
