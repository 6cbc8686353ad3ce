package zk
