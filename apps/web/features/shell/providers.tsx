"use client";

import type { ReactNode } from "react";
import { AccountTokens } from "@/features/auth/account-tokens.tsx";
import { AuthProvider } from "@/features/auth/auth-provider.tsx";
import { ChunkReloadGuard } from "./chunk-reload-guard.tsx";
import { CookieConsent } from "./cookie-consent.tsx";
import { MaintenanceGuard } from "./maintenance-guard.tsx";
import { QueryParams } from "./query-params.tsx";
import { ThemeProvider } from "./theme.tsx";
import { Analytics, ChatWidget } from "./third-party-scripts.tsx";
import { Toaster } from "./toaster.tsx";

export function Providers({ children }: { children: ReactNode }) {
  return (
    <ThemeProvider>
      <AuthProvider>
        {children}
        <Toaster />
        <MaintenanceGuard />
        <QueryParams />
        <AccountTokens />
        <ChunkReloadGuard />
        <CookieConsent />
        <Analytics />
        <ChatWidget />
      </AuthProvider>
    </ThemeProvider>
  );
}
