DROP TABLE node_status;
