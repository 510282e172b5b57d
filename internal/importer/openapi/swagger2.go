package openapi

import (
	"errors"
	"net/url"
	"slices"
	"strings"
)

// fromSwagger2 makes a Swagger 2.0 document OpenAPI 3 in place: its host,
// base path and schemes a server; its body and formData parameters a
// request body in each type it consumes; its other parameters' own type,
// format and items a schema; its security definitions schemes. $refs to
// #/definitions/... resolve as they are written.
func fromSwagger2(doc *document, r *refs) error {
	doc.OpenAPI = "3.0.3"
	doc.Servers = v2Servers(doc)
	doc.Components = &components{SecuritySchemes: map[string]*securityScheme{}}
	for name, s := range doc.SecurityDefinitions {
		if s == nil {
			continue
		}
		v3 := *s
		if s.Type == "basic" {
			v3.Type, v3.Scheme = "http", "basic"
		}
		doc.Components.SecuritySchemes[name] = &v3
	}
	for path, item := range doc.Paths {
		if item == nil {
			continue
		}
		var shared []*parameter // the path's own parameters, body and formData pushed down into its operations
		for _, ref := range item.Parameters {
			prm, err := r.parameter(ref)
			if err != nil {
				return err
			}
			if prm != nil {
				shared = append(shared, prm)
			}
		}
		item.Parameters = nil
		for _, prm := range shared {
			if prm.In != "body" && prm.In != "formData" {
				item.Parameters = append(item.Parameters, v2Parameter(prm))
			}
		}
		for method, o := range item.operations() {
			if err := v2Operation(doc, r, o, shared); err != nil {
				return errors.New(method + " " + path + ": " + err.Error())
			}
		}
	}
	return nil
}

// v2Servers is the server of a Swagger 2.0 document's host, base path and
// schemes (https when it names none); its base path alone without a host.
func v2Servers(doc *document) []*server {
	if doc.Host == "" {
		if doc.BasePath == "" {
			return nil
		}
		return []*server{{URL: (&url.URL{Path: doc.BasePath}).String()}}
	}
	schemes := doc.Schemes
	if len(schemes) == 0 {
		schemes = []string{"https"}
	}
	path := doc.BasePath
	if path == "" {
		path = "/"
	}
	var out []*server
	for _, scheme := range schemes {
		out = append(out, &server{URL: (&url.URL{Scheme: scheme, Host: doc.Host, Path: path}).String()})
	}
	return out
}

// v2Operation makes an operation's parameters OpenAPI 3: body or formData
// ones (its own, or its path's it does not redeclare) a request body.
func v2Operation(doc *document, r *refs, o *operation, shared []*parameter) error {
	consumes := doc.Consumes
	if len(o.Consumes) > 0 {
		consumes = o.Consumes
	}
	var own []*parameter
	for _, ref := range o.Parameters {
		prm, err := r.parameter(ref)
		if err != nil {
			return err
		}
		if prm != nil {
			own = append(own, prm)
		}
	}
	all := own
	for _, prm := range shared {
		if !slices.ContainsFunc(own, func(p *parameter) bool { return p.In == prm.In && p.Name == prm.Name }) {
			all = append(all, prm)
		}
	}
	o.Parameters = nil
	var body *schema
	form := &schema{Type: types{"object"}, Properties: map[string]*schema{}}
	for _, prm := range all {
		switch prm.In {
		case "body":
			if body != nil {
				return errors.New("multiple body parameters cannot exist for the same operation")
			}
			body = prm.Schema
			if body == nil {
				body = &schema{}
			}
		case "formData":
			s := &schema{}
			if prm.v2 != nil {
				c := *prm.v2
				s = &c
			}
			if s.Type.is("file") {
				s.Type, s.Format = types{"string"}, "binary"
			}
			form.Properties[prm.Name] = s
			if prm.Required {
				form.Required = append(form.Required, prm.Name)
			}
		default:
			if slices.Contains(own, prm) {
				o.Parameters = append(o.Parameters, v2Parameter(prm))
			}
		}
	}
	switch {
	case body != nil && len(form.Properties) > 0:
		return errors.New("body and form parameters cannot exist together for the same operation")
	case body != nil:
		o.RequestBody = v2Body(body, consumes)
	case len(form.Properties) > 0:
		slices.Sort(form.Required)
		o.RequestBody = v2Body(form, consumes)
	}
	return nil
}

// v2Body is a request body of s in each type consumed (*/* when none is named).
func v2Body(s *schema, consumes []string) *requestBody {
	if len(consumes) == 0 {
		consumes = []string{"*/*"}
	}
	rb := &requestBody{Content: map[string]*mediaType{}}
	for _, ct := range consumes {
		rb.Content[ct] = &mediaType{Schema: s}
	}
	return rb
}

// v2Parameter is a path, query or header parameter with its own fields as
// its schema; a path parameter is always required.
func v2Parameter(prm *parameter) *parameter {
	c := *prm
	c.Ref = ""
	if c.Schema == nil {
		c.Schema = prm.v2
	}
	if c.In == "path" {
		c.Required = true
	}
	if c.Schema != nil && strings.EqualFold(strings.Join(c.Schema.Type, ""), "file") {
		c.Schema = &schema{Type: types{"string"}, Format: "binary"}
	}
	return &c
}
