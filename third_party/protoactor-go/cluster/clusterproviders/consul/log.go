package consul
