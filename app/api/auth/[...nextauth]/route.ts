// /api/auth/* - next-auth's sign-in, callback, session and sign-out endpoints
import NextAuth from "next-auth";
import { authOptions } from "@/lib/auth-options";

function handler(request: Request, context: { params: Promise<{ nextauth: string[] }> }) {
  return NextAuth(authOptions())(request, context) as Promise<Response>;
}

export { handler as GET, handler as POST };
