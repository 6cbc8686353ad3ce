-- Each running node's heartbeat: its version and its own figures (members
-- it sees, sockets, queue depths, index lag, connection pool), rewritten
-- every few seconds and deleted when the node stops cleanly. The admins'
-- system page reads every node's row from here, so it works across nodes
-- that share nothing but this database. A killed node's row ages (the page
-- says how long it has been silent) and is removed after an hour.
CREATE TABLE node_status (
    -- The node's cluster (remoting) address, unique among running nodes.
    node       text PRIMARY KEY,
    version    text NOT NULL,
    started_at timestamptz NOT NULL,
    figures    jsonb NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
);
