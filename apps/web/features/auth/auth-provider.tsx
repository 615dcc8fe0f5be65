"use client";

import { type Profile, profileSchema } from "@salelink/contracts";
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from "react";
import { ApiError, api } from "@/lib/api.ts";

interface AuthState {
  /** null while signed out, or before the first check has finished. */
  user: Profile | null;
  /** Set once the first profile call has ended, whatever its outcome (spec section 4). */
  authChecked: boolean;
  refresh(): Promise<Profile | null>;
  clear(): void;
}

const AuthContext = createContext<AuthState | null>(null);

async function fetchProfile(): Promise<Profile | null> {
  try {
    return await api("/profile", { schema: profileSchema });
  } catch (err) {
    if (!(err instanceof ApiError)) console.warn("profile check failed", err);
    return null;
  }
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const [user, setUser] = useState<Profile | null>(null);
  const [authChecked, setAuthChecked] = useState(false);

  const refresh = useCallback(async () => {
    const profile = await fetchProfile();
    setUser(profile);
    setAuthChecked(true);
    return profile;
  }, []);
  const clear = useCallback(() => setUser(null), []);

  // The profile is fetched once when the app starts.
  useEffect(() => {
    void refresh();
  }, [refresh]);

  const value = useMemo(() => ({ user, authChecked, refresh, clear }), [user, authChecked, refresh, clear]);
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error("useAuth outside AuthProvider");
  return ctx;
}
