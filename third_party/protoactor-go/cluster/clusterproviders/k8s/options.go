package k8s

// Convenience type to refer to Option callables
type Option func(p *Provider)
