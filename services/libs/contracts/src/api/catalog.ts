// API bodies, queries and answers of the catalog calls (filled in with the catalog service).
export {};
