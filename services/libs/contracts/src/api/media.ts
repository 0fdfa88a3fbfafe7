// API bodies, queries and answers of the media calls (filled in with the media service).
export {};
