#!/bin/sh
echo "Allot applies migrations offline through Prisma's WASM engine: use npm run db:migrate." >&2
exit 1
