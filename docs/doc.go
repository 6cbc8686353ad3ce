// Package docs holds Campus's own documents — architecture.md (the layers, a
// node at runtime, the invariants), protocol.md (the JSON envelope and the
// websocket) and product.md (what the product does, section for section) —
// and the test that keeps the repository's citations of them true. It has no
// code of its own.
package docs
