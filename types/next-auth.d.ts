/* eslint-disable @typescript-eslint/consistent-type-definitions -- module augmentation needs interfaces */
import "next-auth";
import "next-auth/jwt";

declare module "next-auth" {
  interface Session {
    userId?: string;
  }
}

declare module "next-auth/jwt" {
  interface JWT {
    userId?: string;
  }
}
