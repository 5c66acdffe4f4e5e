// SPDX-License-Identifier: GPL-2.0
/*
 * The second 'twin' of bp-app (bp-app.c): a global symbol of the same name
 * as bp-app.c's static one, so that mem:twin@FILE is ambiguous and
 * twin#1, twin#2 and twin#g pick one.
 */
volatile int twin = 2;

volatile int *twin_global_addr(void)
{
	return &twin;
}
