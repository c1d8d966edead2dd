// Loaded before every unit spec: a unit spec that asks for a test database fails, saying to rename it.
process.env.LNK_TEST_DB_KIND = 'none';
